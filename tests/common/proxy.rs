//! A TCP proxy for cutting a service off from its database in tests: everything sent to the
//! proxy's port is forwarded to the database until `cut`, which closes every open connection
//! and closes each new one as soon as it is accepted (as a database that went away would),
//! until `restore`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

pub struct Proxy {
    addr: SocketAddr,
    cut: Arc<AtomicBool>,
    /// Bumped by every `cut`: each forwarding task ends when it changes.
    cuts: watch::Sender<u64>,
    accepting: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listens on a free port of 127.0.0.1 and forwards to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the proxy");
        let addr = listener.local_addr().unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let (cuts, _) = watch::channel(0u64);
        let accepting = {
            let (cut, cuts) = (cut.clone(), cuts.clone());
            tokio::spawn(async move {
                while let Ok((client, _)) = listener.accept().await {
                    if cut.load(Ordering::SeqCst) {
                        drop(client);
                        continue;
                    }
                    let mut ended = cuts.subscribe();
                    tokio::spawn(async move {
                        let Ok(mut server) = TcpStream::connect(upstream).await else {
                            return;
                        };
                        let mut client = client;
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                            _ = ended.changed() => {}
                        }
                        // Dropping both ends closes them.
                    });
                }
            })
        };
        Proxy {
            addr,
            cut,
            cuts,
            accepting,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Closes every connection and refuses new ones until `restore`.
    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        self.cuts.send_modify(|n| *n += 1);
    }

    pub fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
        self.cuts.send_modify(|n| *n += 1);
    }
}
