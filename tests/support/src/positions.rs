//! Positions shared by the SMP tests and the SMP stress test: forced positions every worker
//! count must answer exactly as one worker does.

/// Black to move has a five in one.
pub const FIVE_IN_ONE: &str = "\
. . . . . . . . . . .
. . . . . . . . . . .
. . O . . . . . . . .
. . . X X X X O . . .
. . . . . O . . . . .
. . . . O . X . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
";

/// White to move must block black's four at its only open end.
pub const BLOCK_FOUR: &str = "\
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . O X X X X . . . .
. . . . . O . . . . .
. . . . . . . . . . .
. . . . . . O . . . .
. . . . X . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
";

/// White makes a four-three (row 5 and column 6 through 6,5): a proven win.
pub const FOUR_THREE: &str = "\
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . O . . . .
. X . . . . O . . . X
. . . . . . O . . X .
. . O O O . . . . . .
. . . . . . . . X . .
. . . X . . . X . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
";
