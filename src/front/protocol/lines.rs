//! Splitting a byte stream into protocol lines with bounded memory.
//!
//! Managers end lines with CRLF, hand-typed input with LF, and some old tools with a bare CR;
//! all three (and mixes of them) end a line here. A CR immediately followed by LF is one line
//! end, not two, even when the two bytes arrive in different reads.
//!
//! A line longer than [`MAX_LINE`] bytes is not kept: its first bytes are dropped, the rest is
//! skipped up to the next line end without being stored, and [`Line::TooLong`] is reported once.
//! So a peer sending megabytes without a newline costs a fixed buffer, never memory in
//! proportion to what it sends. Bytes that are not UTF-8 are replaced (lossy decoding): they can
//! only make a command unknown, never panic the reader.

use std::io::{ErrorKind, Read};

/// The longest line kept, in bytes. Protocol lines are short (the longest real one is an `INFO
/// folder` path); this leaves room for long paths.
pub const MAX_LINE: usize = 16 * 1024;

/// One unit read from the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line without its terminator.
    Text(String),
    /// A line that exceeded [`MAX_LINE`] bytes and was discarded.
    TooLong,
}

/// Reads [`Line`]s from any byte stream.
pub struct LineReader<R> {
    input: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    line: Vec<u8>,
    overflow: bool,
    after_cr: bool,
    eof: bool,
}

impl<R: Read> LineReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            buf: vec![0; 8192].into_boxed_slice(),
            start: 0,
            end: 0,
            line: Vec::new(),
            overflow: false,
            after_cr: false,
            eof: false,
        }
    }

    /// The next line, or `None` at end of input. A read error counts as end of input (a reset
    /// connection is a peer that left). A last line without a terminator is still returned.
    pub fn next_line(&mut self) -> Option<Line> {
        loop {
            while self.start < self.end {
                let b = self.buf[self.start];
                self.start += 1;
                let after_cr = std::mem::replace(&mut self.after_cr, false);
                match b {
                    b'\n' if after_cr => {}
                    b'\n' | b'\r' => {
                        self.after_cr = b == b'\r';
                        return Some(self.take_line());
                    }
                    _ if self.overflow => {}
                    _ if self.line.len() >= MAX_LINE => {
                        self.overflow = true;
                        self.line = Vec::new();
                    }
                    _ => self.line.push(b),
                }
            }
            if self.eof {
                return if self.overflow || !self.line.is_empty() {
                    Some(self.take_line())
                } else {
                    None
                };
            }
            match self.input.read(&mut self.buf) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.start = 0;
                    self.end = n;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => self.eof = true,
            }
        }
    }

    fn take_line(&mut self) -> Line {
        if std::mem::replace(&mut self.overflow, false) {
            self.line.clear();
            return Line::TooLong;
        }
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        Line::Text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Delivers its data a few bytes per read, to split terminators across reads.
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(self.0.len()).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn lines(data: &[u8], chunk: usize) -> Vec<Line> {
        let mut r = LineReader::new(Trickle(data, chunk));
        std::iter::from_fn(|| r.next_line()).collect()
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn every_terminator_and_mixes() {
        let data = b"a\r\nb\nc\rd\r\r\ne\n\rf";
        let want = vec![
            text("a"),
            text("b"),
            text("c"),
            text("d"),
            text(""),
            text("e"),
            text(""),
            text("f"),
        ];
        for chunk in 1..8 {
            assert_eq!(lines(data, chunk), want, "chunk {chunk}");
        }
    }

    #[test]
    fn huge_line_is_reported_once_and_the_next_line_survives() {
        let mut data = vec![b'x'; MAX_LINE * 5 + 3];
        data.extend_from_slice(b"\r\nABOUT\r\n");
        let got = lines(&data, 4096);
        assert_eq!(got, vec![Line::TooLong, text("ABOUT")]);
        let mut exact = vec![b'y'; MAX_LINE];
        exact.extend_from_slice(b"\n");
        assert_eq!(lines(&exact, 1000)[0], text(&"y".repeat(MAX_LINE)));
    }

    #[test]
    fn huge_unterminated_tail_at_eof() {
        let data = vec![b'z'; MAX_LINE + 1];
        assert_eq!(lines(&data, 512), vec![Line::TooLong]);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(lines(b"AB\xffC\n", 3), vec![text("AB\u{fffd}C")]);
    }
}
