//! Table talk (`games::talk`): messages a seat says to the table or tells one seat, each with
//! the notices that carry it, written in one transaction. Outside the game's hash chain: the
//! events never name them.

use serde::{Deserialize, Serialize};

use super::{OutboxRecord, Result, Store};

/// One message as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TalkRecord {
    pub game_id: super::GameId,
    /// Its number in the store (0 before it is kept).
    pub id: i64,
    /// The game's last event when it was said.
    pub after_seq: u64,
    pub from_seat: String,
    /// `None`: said to the whole table.
    pub to_seat: Option<String>,
    pub body: String,
    pub recorded_at: String,
}

impl Store {
    /// Keeps a message and queues its notices, in one transaction.
    pub async fn add_talk(&self, talk: &TalkRecord, notices: &[OutboxRecord]) -> Result<()> {
        let insert = "INSERT INTO talk (game_id, after_seq, from_seat, to_seat, body, recorded_at)
                      VALUES ($1, $2, $3, $4, $5, $6)";
        let notice =
            "INSERT INTO outbox (game_id, seq, channel, seat, payload) VALUES ($1, $2, $3, $4, $5)";
        let after = i64::try_from(talk.after_seq).unwrap_or(i64::MAX);
        db_run!(self, writer pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(insert)
                .bind(&talk.game_id)
                .bind(after)
                .bind(&talk.from_seat)
                .bind(&talk.to_seat)
                .bind(&talk.body)
                .bind(&talk.recorded_at)
                .execute(&mut *tx)
                .await?;
            for n in notices {
                sqlx::query(notice)
                    .bind(&n.game_id)
                    .bind(i64::try_from(n.seq).unwrap_or(i64::MAX))
                    .bind(&n.channel)
                    .bind(&n.seat)
                    .bind(n.payload.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Every message of a game, oldest first.
    pub async fn talk(&self, game_id: &super::GameId) -> Result<Vec<TalkRecord>> {
        let sql = "SELECT id, after_seq, from_seat, to_seat, body, recorded_at FROM talk
                   WHERE game_id = $1 ORDER BY id";
        #[allow(clippy::type_complexity)]
        let rows: Vec<(i64, i64, String, Option<String>, String, String)> = db_run!(self, writer pool => {
            sqlx::query_as(sql).bind(game_id).fetch_all(pool).await?
        });
        Ok(rows
            .into_iter()
            .map(
                |(id, after, from_seat, to_seat, body, recorded_at)| TalkRecord {
                    game_id: game_id.clone(),
                    id,
                    after_seq: u64::try_from(after).unwrap_or_default(),
                    from_seat,
                    to_seat,
                    body,
                    recorded_at,
                },
            )
            .collect())
    }
}
