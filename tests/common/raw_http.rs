//! HTTP/1.1 by hand over a TCP socket, for what a well-behaved client never does: send a head
//! and hold the body back, trickle it a byte at a time, or declare more than it sends. The
//! server's answer is read as it comes, while the body is still being (or never) sent.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

/// The server's answer: its status, its head and as much of its body as came.
#[derive(Debug)]
pub struct RawAnswer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

/// A connection to the server at `base` (`http://127.0.0.1:port`), split so that a test can
/// write the body while it reads the answer.
pub async fn connect(base: &str) -> (OwnedReadHalf, OwnedWriteHalf) {
    let addr = base.trim_start_matches("http://");
    TcpStream::connect(addr)
        .await
        .expect("connect to the test server")
        .into_split()
}

/// Sends `head` (the request line and headers, without the blank line that ends them).
pub async fn send_head(write: &mut OwnedWriteHalf, head: &str) {
    write
        .write_all(format!("{head}\r\n\r\n").as_bytes())
        .await
        .expect("send the head");
}

/// Reads the answer: its head and the body its `Content-Length` announces (or what came before
/// the server closed). `None` if nothing came within `guard`, a hang guard.
pub async fn read_answer(read: &mut OwnedReadHalf, guard: Duration) -> Option<RawAnswer> {
    tokio::time::timeout(guard, async {
        let mut got = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            if let Some(end) = find(&got, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&got[..end]).into_owned();
                let length = head
                    .lines()
                    .find_map(|l| {
                        let (name, value) = l.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                if got.len() >= end + 4 + length {
                    return Some(answer(&got, end, length));
                }
            }
            match read.read(&mut buf).await {
                Ok(0) | Err(_) => {
                    let end = find(&got, b"\r\n\r\n")?;
                    return Some(answer(&got, end, got.len() - end - 4));
                }
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .ok()
    .flatten()
}

fn answer(got: &[u8], end: usize, length: usize) -> RawAnswer {
    let head = String::from_utf8_lossy(&got[..end]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let body_end = (end + 4 + length).min(got.len());
    RawAnswer {
        status,
        head,
        body: String::from_utf8_lossy(&got[end + 4..body_end]).into_owned(),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
