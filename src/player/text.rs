//! Short echoes of user input in messages: a spec, a time control, a protocol word or a request
//! field quoted in an error is cut to a readable length.

/// Longest piece of user input echoed in a message.
const CLIP_CHARS: usize = 100;

/// `s` with whitespace runs made single spaces and each word longer than 120 characters cut as
/// [`clip`] cuts it: a message quoting user input stays short.
pub fn clip_words(s: &str) -> String {
    // A word [`clip`] already cut (100 characters, quotes, an ellipsis) is left as it is.
    let cut = |w: &str| if w.chars().count() > CLIP_CHARS + 20 { clip(w) } else { w.to_string() };
    let words: Vec<String> = s.split_whitespace().map(cut).collect();
    words.join(" ")
}

/// `s` itself when short, else its first 100 characters, an ellipsis and its length: long inputs
/// are not echoed whole in error messages.
pub fn clip(s: &str) -> String {
    let n = s.chars().count();
    if n <= CLIP_CHARS {
        return s.to_string();
    }
    let head: String = s.chars().take(CLIP_CHARS).collect();
    format!("{head}… ({n} characters)")
}
