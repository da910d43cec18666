"""Instructions a move costs the server, counted by callgrind: repeatable whatever else the machine
is doing, so two builds can be compared on a shared machine (BENCHMARKS.md, "Instructions per
move").

`despatch serve` (SQLite, dispatcher and rate limits off) runs under `valgrind --tool=callgrind`;
an open-table game in free order gets N moves of `roll 1d6` over HTTP, one at a time; the
server's total instructions (Ir) are printed. Run it at two values of N and take the difference
over the moves between them, so that start-up and the game's creation cancel out:

    python3 benches/move_instructions.py target/release/despatch 20
    python3 benches/move_instructions.py target/release/despatch 220

"""
import json, os, re, signal, socket, subprocess, sys, tempfile, time, urllib.request

binary, moves = sys.argv[1], int(sys.argv[2])
work = tempfile.mkdtemp()
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
out = os.path.join(work, "cg.out")
env = dict(os.environ, DESPATCH_DATA_DIR=work, DESPATCH_BIND=f"127.0.0.1:{port}",
           DESPATCH_MOVE_RATE="off", DESPATCH_CREATE_RATE="off", DESPATCH_DISPATCHER="off")
env.pop("DATABASE_URL", None)
p = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "serve"],
                     env=env, stdout=open(os.path.join(work, "log"), "w"), stderr=subprocess.STDOUT)
base = f"http://127.0.0.1:{port}"
def req(method, path, body=None, token=None):
    r = urllib.request.Request(base + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"content-type": "application/json", **({"authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(r, timeout=120) as resp:
        return json.loads(resp.read() or b"null")
for _ in range(600):
    try:
        urllib.request.urlopen(base + "/health", timeout=5); break
    except Exception:
        time.sleep(0.2)
g = req("POST", "/api/games", {"ruleset": "open-table", "options": {"order": "free"},
        "seats": [{"seat": "anna", "name": "Anna"}, {"seat": "bert", "name": "Bert", "email": "bert@bench.invalid"}]})
seq, tok = 1, g["seats"][0]["token"]
for _ in range(moves):
    seq = req("POST", f"/api/games/{g['game_id']}/moves", {"expected_seq": seq, "command": "roll 1d6"}, tok)["next_seq"]
p.send_signal(signal.SIGINT); p.wait(timeout=300)
total = 0
for line in open(out):
    m = re.match(r"(summary|totals): (\d+)", line)
    if m: total = int(m.group(2))
print(binary, moves, total, out)
