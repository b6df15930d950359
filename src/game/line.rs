//! Written move lists, common to every game: move numbers, comments and results around the moves.

use super::{Color, State};

/// One token of a written move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListToken {
    /// A move number: `2.` (white to move) or `2...` / `2. ...` (black to move).
    Number {
        /// The number.
        number: u32,
        /// Whether it announces a black move.
        black: bool,
    },
    /// A move in either form.
    Move(String),
}

/// Splits a move list such as `1. P-Cc2 P-Cc4 2. B-De4/G ... 3. ... Cd4` into tokens. Comments in
/// `(...)` or `{...}` and results (`1-0`, `0-1`, `1/2-1/2`, `*`) are dropped; `1.P-Cc2` is read as a
/// number and a move.
pub fn tokenize_moves(text: &str) -> Vec<ListToken> {
    let mut clean = String::with_capacity(text.len());
    let mut depth = 0usize;
    for ch in text.chars() {
        match ch {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => clean.push(ch),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for word in clean.split_whitespace() {
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        let dots_only = !word.is_empty() && word.chars().all(|c| c == '.' || c == '…');
        if dots_only {
            if let Some(ListToken::Number { black, .. }) = out.last_mut() {
                *black = true;
            }
            continue;
        }
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let rest = &word[digits..];
        let dots = rest.bytes().take_while(|&b| b == b'.').count();
        if digits > 0 && dots > 0 {
            if let Ok(number) = word[..digits].parse::<u32>() {
                out.push(ListToken::Number { number, black: dots >= 3 });
                let mv = &rest[dots..];
                if !mv.is_empty() {
                    out.push(ListToken::Move(mv.to_string()));
                }
                continue;
            }
        }
        out.push(ListToken::Move(word.to_string()));
    }
    out
}

/// Where the first comment of a move list that is never closed opens (byte offset) and the
/// bracket that would close it; `None` when every `(` and `{` is closed.
pub fn unclosed_comment(text: &str) -> Option<(usize, char)> {
    let mut open: Vec<(usize, char)> = Vec::new();
    for (i, ch) in text.char_indices() {
        match ch {
            '(' => open.push((i, ')')),
            '{' => open.push((i, '}')),
            ')' | '}' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.first().copied()
}

/// The label of the move about to be played in `pos`: `2.` for white, `2...` for black.
pub fn move_number_label<S: State>(pos: &S) -> String {
    match pos.side() {
        Color::White => format!("{}.", pos.fullmove()),
        Color::Black => format!("{}...", pos.fullmove()),
    }
}

/// A numbered line of `moves` played from `start`, each written by `text` in the position it is
/// played from (`1. m1 m2 2. m3`, starting `5... m` when black moves first). The moves must be
/// legal in sequence.
pub fn numbered_line<S: State>(start: &S, moves: &[S::Move], text: impl Fn(&S, S::Move) -> String) -> String {
    let mut pos = start.clone();
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if i == 0 || pos.side() == Color::White {
            out.push_str(&move_number_label(&pos));
            out.push(' ');
        }
        out.push_str(&text(&pos, m));
        pos.make(m);
    }
    out
}
