//! Helpers for the notification tests: the real SMTP server `scripts/test` starts (aiosmtpd with
//! a maildir) and a tiny scripted HTTP receiver for webhooks.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use mail_parser::MessageParser;

/// `host:port` of the test SMTP server.
pub fn smtp_addr() -> String {
    std::env::var("DESPATCH_TEST_SMTP").expect(
        "DESPATCH_TEST_SMTP is not set: run the tests with ./scripts/test, which starts an SMTP server",
    )
}

pub fn maildir() -> PathBuf {
    PathBuf::from(
        std::env::var("DESPATCH_TEST_MAILDIR")
            .expect("DESPATCH_TEST_MAILDIR is not set: run the tests with ./scripts/test"),
    )
}

/// A port nothing listens on (bound, then released).
pub fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// A message as delivered to the SMTP server.
#[derive(Debug, Clone)]
pub struct Delivered {
    pub to: Vec<String>,
    pub subject: String,
    pub message_id: String,
    pub text: String,
    pub html: String,
    pub reply_to: Vec<String>,
    /// `In-Reply-To`, then `References`: the ids this message answers.
    pub answers: Vec<String>,
    /// `X-Despatch-Head`, as mail-parser reads it: `<game> <seq> <hash>`.
    pub head: Option<String>,
    /// The message as the SMTP server wrote it.
    pub raw: String,
}

/// Every message in the maildir addressed to an address containing `tag`.
pub fn delivered_to(tag: &str) -> Vec<Delivered> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(dir) = std::fs::read_dir(maildir().join(sub)) else {
            continue;
        };
        for entry in dir.flatten() {
            let Ok(bytes) = std::fs::read(entry.path()) else {
                continue;
            };
            let Some(m) = MessageParser::default().parse(&bytes) else {
                continue;
            };
            let addresses = |a: Option<&mail_parser::Address>| -> Vec<String> {
                a.map(|a| {
                    a.iter()
                        .filter_map(|x| x.address().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
            };
            let to = addresses(m.to());
            if !to.iter().any(|t| t.contains(tag)) {
                continue;
            }
            out.push(Delivered {
                to,
                subject: m.subject().unwrap_or_default().to_owned(),
                message_id: m.message_id().unwrap_or_default().to_owned(),
                text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                html: m.body_html(0).map(|t| t.into_owned()).unwrap_or_default(),
                reply_to: addresses(m.reply_to()),
                answers: [m.in_reply_to(), m.references()]
                    .into_iter()
                    .flat_map(|h| match h {
                        mail_parser::HeaderValue::Text(t) => vec![t.to_string()],
                        mail_parser::HeaderValue::TextList(l) => {
                            l.iter().map(|t| t.to_string()).collect()
                        }
                        _ => Vec::new(),
                    })
                    .collect(),
                head: m
                    .header("X-Despatch-Head")
                    .and_then(|h| h.as_text())
                    .map(str::to_owned),
                raw: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
    }
    out
}

/// Waits until at least `n` messages for `tag` have arrived (the SMTP server writes each one
/// after it answers), then returns them.
pub async fn wait_for_mail(tag: &str, n: usize) -> Vec<Delivered> {
    for _ in 0..100 {
        let got = delivered_to(tag);
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    delivered_to(tag)
}

/// How the receiver answers one request.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    Status(u16),
    /// Waits this long, then answers 200 (longer than the sender's timeout: a timeout).
    Stall(Duration),
}

/// A request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub delivery_id: String,
    pub signature: String,
    pub event: String,
    pub body: String,
}

/// A webhook receiver on port 0 that answers from a script (then 200 for ever).
#[derive(Clone)]
pub struct Receiver {
    pub url: String,
    script: Arc<Mutex<VecDeque<Answer>>>,
    pub received: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    pub async fn start(script: Vec<Answer>) -> Receiver {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let r = Receiver {
            url,
            script: Arc::new(Mutex::new(script.into())),
            received: Arc::new(Mutex::new(Vec::new())),
        };
        let state = web::Data::new(r.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(state.clone())
                .default_service(web::to(receive))
        })
        .workers(2)
        .listen(listener)
        .unwrap()
        .run();
        tokio::spawn(server);
        r
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

async fn receive(state: web::Data<Receiver>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    state.received.lock().unwrap().push(Received {
        delivery_id: header("X-Despatch-Delivery"),
        signature: header("X-Despatch-Signature"),
        event: header("X-Despatch-Event"),
        body: String::from_utf8_lossy(&body).into_owned(),
    });
    let answer = state.script.lock().unwrap().pop_front();
    match answer {
        Some(Answer::Status(code)) => {
            HttpResponse::build(actix_web::http::StatusCode::from_u16(code).unwrap()).finish()
        }
        Some(Answer::Stall(d)) => {
            tokio::time::sleep(d).await;
            HttpResponse::Ok().finish()
        }
        None => HttpResponse::Ok().finish(),
    }
}
