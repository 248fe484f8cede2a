//! The database on real files: round trips, symmetry, transactions, refusal of foreign files,
//! read-only mode, locking, check and fix.

use super::*;
use crate::game::board::Color;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bango-db-unit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("test.db")
}

fn pos(moves: &[(usize, usize)]) -> Position {
    let moves: Vec<Pos> = moves.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    Position::from_moves(Rule::Renju, 15, 15, &moves).unwrap()
}

#[test]
fn a_record_survives_reopening_and_is_found_from_every_symmetric_image() {
    let path = temp("roundtrip");
    let p = pos(&[(7, 7), (8, 6), (9, 9)]);
    {
        let db = Database::open(&path, Mode::ReadWrite).unwrap();
        let rec = Record {
            value: Some(Value::Score {
                score: 42,
                depth: 9,
            }),
            best_move: Some(Pos::new(10, 3)),
            label: "a".into(),
            text: "note".into(),
            written_at: 0,
        };
        db.put(&p, &rec).unwrap();
    }
    let db = Database::open(&path, Mode::ReadOnly).unwrap();
    let got = db.get(&p).unwrap().unwrap();
    assert_eq!(
        got.value,
        Some(Value::Score {
            score: 42,
            depth: 9
        })
    );
    assert_eq!((got.label.as_str(), got.text.as_str()), ("a", "note"));
    assert_eq!(got.best_move, Some(Pos::new(10, 3)));
    assert!(got.written_at > 1_600_000_000);
    // The mirror image (x -> 14 - x) finds it, with the best move mirrored.
    let mirrored = pos(&[(7, 7), (6, 6), (5, 9)]);
    assert_eq!(
        db.get(&mirrored).unwrap().unwrap().best_move,
        Some(Pos::new(4, 3))
    );
    // A quarter turn ((x, y) -> (14 - y, x)).
    let turned = pos(&[(7, 7), (8, 8), (5, 9)]);
    assert_eq!(
        db.get(&turned).unwrap().unwrap().best_move,
        Some(Pos::new(11, 10))
    );
    assert_eq!(db.len().unwrap(), 1);
    // The same stones with the other side to move, or another rule, are other positions.
    let mut other = p.clone();
    other.to_move = Color::Black;
    assert_eq!(db.get(&other).unwrap(), None);
    assert_eq!(db.positions(Rule::Freestyle, 15, 15).unwrap(), vec![]);
    let listed = db.positions(Rule::Renju, 15, 15).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].side_to_move(), Color::White);
    assert_eq!(listed[0].stones().len(), 3);
}

#[test]
fn a_failed_import_writes_nothing() {
    let path = temp("atomic");
    let db = Database::open(&path, Mode::ReadWrite).unwrap();
    let good = StoredPosition {
        position: pos(&[(7, 7)]),
        record: Record {
            label: "x".into(),
            ..Record::default()
        },
    };
    let mut bad = good.clone();
    bad.position.stones.push((Pos::new(7, 7), Color::White));
    let err = db.import(vec![good.clone(), bad]).unwrap_err();
    assert!(matches!(err, DbError::Invalid(_)), "{err}");
    assert_eq!(db.len().unwrap(), 0);
    assert_eq!(db.import(vec![good]).unwrap(), 1);
    assert_eq!(db.len().unwrap(), 1);
}

#[test]
fn foreign_files_are_refused_and_left_untouched() {
    let path = temp("foreign");
    std::fs::write(&path, b"Yixin database, not SQLite at all\x00\x01\x02").unwrap();
    let before = std::fs::read(&path).unwrap();
    for mode in [Mode::ReadWrite, Mode::ReadOnly] {
        let err = Database::open(&path, mode).unwrap_err();
        assert!(
            err.to_string().contains("not a bango position database"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // An SQLite file of another program.
    let other = path.with_file_name("other.db");
    {
        let c = Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    let before = std::fs::read(&other).unwrap();
    let err = Database::open(&other, Mode::ReadWrite).unwrap_err();
    assert!(err.to_string().contains("another program"), "{err}");
    assert_eq!(std::fs::read(&other).unwrap(), before);
    assert!(!other.with_file_name("other.db-wal").exists());
}

#[test]
fn read_only_refuses_writes_and_missing_files() {
    let path = temp("readonly");
    assert_eq!(
        Database::open(&path, Mode::ReadOnly).unwrap_err(),
        DbError::Missing(path.clone())
    );
    Database::open(&path, Mode::ReadWrite).unwrap();
    let db = Database::open(&path, Mode::ReadOnly).unwrap();
    assert_eq!(
        db.put(&pos(&[(1, 1)]), &Record::default()),
        Err(DbError::ReadOnly)
    );
    assert_eq!(db.len().unwrap(), 0);
}

#[test]
fn a_second_writer_gets_a_clear_lock_error() {
    let path = temp("locked");
    let a = Database::open(&path, Mode::ReadWrite).unwrap();
    let b = Database::open(&path, Mode::ReadWrite).unwrap();
    let mut held = a.conn.lock();
    let tx = held
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    let err = b.put(&pos(&[(2, 2)]), &Record::default()).unwrap_err();
    assert_eq!(err, DbError::Locked);
    assert_eq!(err.to_string(), "database is locked by another process");
    drop(tx);
    drop(held);
    b.put(&pos(&[(2, 2)]), &Record::default()).unwrap();
    assert_eq!(a.len().unwrap(), 1);
}

#[test]
fn newer_schemas_are_refused_and_results_only_improve() {
    let path = temp("schema");
    let db = Database::open(&path, Mode::ReadWrite).unwrap();
    let p = pos(&[(7, 7)]);
    assert!(db
        .record_result(
            &p,
            Value::Score {
                score: 5,
                depth: 10
            },
            Some(Pos::new(8, 8))
        )
        .unwrap());
    assert!(!db
        .record_result(&p, Value::Score { score: 9, depth: 4 }, None)
        .unwrap());
    assert!(db.record_result(&p, Value::Loss, None).unwrap());
    let r = db.get(&p).unwrap().unwrap();
    assert_eq!(
        (r.value, r.best_move),
        (Some(Value::Loss), Some(Pos::new(8, 8)))
    );
    drop(db);
    {
        let c = Connection::open(&path).unwrap();
        c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
    }
    assert_eq!(
        Database::open(&path, Mode::ReadWrite).unwrap_err(),
        DbError::NewerSchema(SCHEMA_VERSION + 1)
    );
}

#[test]
fn check_finds_and_fix_repairs_damaged_rows() {
    let path = temp("fix");
    let db = Database::open(&path, Mode::ReadWrite).unwrap();
    db.put(
        &pos(&[(7, 7)]),
        &Record {
            label: "ok".into(),
            ..Record::default()
        },
    )
    .unwrap();
    assert_eq!(db.check().unwrap(), Vec::<String>::new());
    {
        let c = db.conn.lock();
        // A row under a non-canonical key (the stone at 0,1 is the canonical (0,1)? no: its
        // canonical image is (0,1) only if smallest; (14,13) is not) and an undecodable one.
        c.execute_batch(
            "INSERT INTO positions VALUES ('renju', 15, 15, X'01AE00', 1, 1, NULL, NULL, NULL, 'far', '', 0);
             INSERT INTO positions VALUES ('renju', 15, 15, X'0102', 1, NULL, NULL, NULL, NULL, '', '', 0);",
        )
        .unwrap();
    }
    let problems = db.check().unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(db.fix().unwrap(), 2);
    assert_eq!(db.check().unwrap(), Vec::<String>::new());
    // The re-keyed row is found again from its own position.
    let far = Position {
        stones: vec![(Pos(0x01AE), Color::Black)],
        ..pos(&[])
    };
    let far = Position {
        to_move: Color::White,
        ..far
    };
    assert_eq!(db.get(&far).unwrap().unwrap().label, "far");
    assert_eq!(db.len().unwrap(), 2);
}

#[test]
fn delete_below_takes_only_descendants_that_pass_the_filter() {
    let path = temp("below");
    let db = Database::open(&path, Mode::ReadWrite).unwrap();
    let root = pos(&[(7, 7)]);
    let win = pos(&[(7, 7), (8, 8)]);
    let plain = pos(&[(7, 7), (6, 8), (5, 5)]);
    let elsewhere = pos(&[(3, 3), (4, 4)]);
    for (p, v) in [
        (&root, None),
        (&win, Some(Value::Win)),
        (&plain, None),
        (&elsewhere, None),
    ] {
        db.put(
            p,
            &Record {
                value: v,
                ..Record::default()
            },
        )
        .unwrap();
    }
    assert_eq!(db.delete_below(&root, |r| r.value.is_none()).unwrap(), 1);
    assert!(db.get(&plain).unwrap().is_none());
    assert!(db.get(&win).unwrap().is_some());
    assert_eq!(db.delete_below(&root, |_| true).unwrap(), 1);
    assert_eq!(db.len().unwrap(), 2);
    assert!(db.delete(&root).unwrap());
    assert!(!db.delete(&root).unwrap());
}

#[test]
fn an_older_schema_is_migrated_on_open() {
    let path = temp("migrate");
    {
        // Ours (the application id) at schema 0: marked, but no table yet.
        let c = Connection::open(&path).unwrap();
        c.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        c.execute_batch("CREATE TABLE placeholder (x)").unwrap();
    }
    // Read-only never migrates: the table is missing, and it says so.
    let ro = Database::open(&path, Mode::ReadOnly).unwrap();
    assert!(matches!(ro.len(), Err(DbError::Sqlite(_))));
    drop(ro);
    let db = Database::open(&path, Mode::ReadWrite).unwrap();
    assert_eq!(db.len().unwrap(), 0);
    let version: i32 = db
        .conn
        .lock()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    db.put(&pos(&[(7, 7)]), &Record::default()).unwrap();
    assert_eq!(db.len().unwrap(), 1);
}
