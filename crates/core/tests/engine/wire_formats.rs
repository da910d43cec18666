//! DESIGN.md's wire formats against the test vectors of an independent implementation
//! (tests/data/wire-formats.json, copied from shared/test-vectors).

use despatch_core::engine::canonical::{canonical_json, hex32, sha256_hex};
use despatch_core::engine::dice::{faces, Chain, DiceStream};
use despatch_core::engine::event::Event;
use despatch_core::engine::sealed::{commitment, SealedChoice};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("../data/wire-formats.json")).unwrap()
}

#[test]
fn canonical_json_matches_rfc_8785_vectors() {
    for case in vectors()["canonical_json"].as_array().unwrap() {
        let canonical = canonical_json(&case["value"]);
        assert_eq!(canonical, case["canonical"].as_str().unwrap());
        assert_eq!(
            sha256_hex(canonical.as_bytes()),
            case["sha256"].as_str().unwrap()
        );
    }
}

#[test]
fn the_public_chain_hashes_down_from_its_tip() {
    let v = vectors();
    let chain = &v["hash_chain"];
    let tip = hex32(chain["tip_s5"].as_str().unwrap()).unwrap();
    let links: Vec<String> = Chain::new(tip, chain["length"].as_u64().unwrap() as u32)
        .links()
        .iter()
        .map(hex::encode)
        .collect();
    let expected: Vec<String> = chain["links_s0_to_s5"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(links, expected);
    let c = Chain::new(tip, 5);
    assert_eq!(hex::encode(c.link(2)), expected[2]);
}

#[test]
fn dice_streams_give_the_vector_faces_with_rejection_sampling() {
    for case in vectors()["dice"].as_array().unwrap() {
        let key = hex32(case["key_link"].as_str().unwrap()).unwrap();
        let game = case["game_id"].as_str().unwrap();
        let seq = case["seq"].as_u64().unwrap();
        let seat = case["seat"].as_str().unwrap();
        let entropy = case["client_entropy"].as_str().unwrap();
        let sides: Vec<u32> = case["sides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as u32)
            .collect();
        let expected: Vec<u32> = case["faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as u32)
            .collect();
        let stream = DiceStream::new(&key, game, seq, seat, entropy);
        assert_eq!(
            stream.block_message(0),
            case["first_block_msg"].as_str().unwrap()
        );
        assert_eq!(
            hex::encode(stream.block_bytes(0)),
            case["first_block_hex"].as_str().unwrap()
        );
        assert_eq!(
            faces(&key, game, seq, seat, entropy, &sides),
            expected,
            "{game} seq {seq}"
        );
    }
}

#[test]
fn sealed_commitments_match_the_vectors() {
    for case in vectors()["sealed"].as_array().unwrap() {
        let salt = hex::decode(case["salt"].as_str().unwrap()).unwrap();
        assert_eq!(
            commitment(&case["choice"], &salt),
            case["commitment"].as_str().unwrap()
        );
        let sealed = SealedChoice::with_salt(case["choice"].clone(), &salt);
        assert_eq!(sealed.opens(), Ok(()));
    }
}

#[test]
fn a_wrong_reveal_salt_does_not_open_the_commitment() {
    let case = &vectors()["sealed"][0];
    let mut sealed = SealedChoice::with_salt(
        case["choice"].clone(),
        &hex::decode(case["salt"].as_str().unwrap()).unwrap(),
    );
    sealed.salt = "ff0102030405060708090a0b0c0d0e0f".into();
    assert!(sealed.opens().is_err());
    sealed.salt = "0001".into();
    assert!(sealed
        .opens()
        .unwrap_err()
        .to_string()
        .contains("at least 16"));
}

#[test]
fn the_event_hash_is_sha256_of_the_canonical_envelope() {
    let v = vectors();
    let case = &v["event_hash"];
    let e = &case["event_without_hash"];
    let event = Event::new(
        e["game_id"].as_str().unwrap(),
        e["seq"].as_u64().unwrap(),
        e["kind"].as_str().unwrap(),
        e["seat"].as_str().unwrap(),
        e["payload"].clone(),
        e["recorded_at"].as_str().unwrap().to_owned(),
        None,
        e["prev_hash"].as_str().unwrap(),
    );
    assert_eq!(canonical_json(e), case["canonical"].as_str().unwrap());
    assert_eq!(event.hash, case["hash"].as_str().unwrap());
}
