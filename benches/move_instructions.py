"""Instructions a move costs the server, counted by callgrind: repeatable whatever else the machine
is doing, so two builds can be compared on a shared machine (BENCHMARKS.md, "Instructions per
move").

`despatch serve` (SQLite, dispatcher and rate limits off) runs under `valgrind --tool=callgrind`;
an open-table game in free order gets N moves of `roll 1d6` over HTTP, one at a time; the
server's total instructions (Ir) are printed. Run it at two values of N and take the difference
over the moves between them, so that start-up and the game's creation cancel out:

    cargo build --profile dist --bin despatch   # the build that is shipped
    python3 benches/move_instructions.py target/dist/despatch 20
    python3 benches/move_instructions.py target/dist/despatch 220

With `--notices` the dispatcher runs too, writing Bert's mail to files, and the server is stopped
only when every move's notice to him is written: the difference from a run without it is what
the notices cost (BENCHMARKS.md, "What a notice costs").

"""
import json, os, re, signal, socket, subprocess, sys, tempfile, time, urllib.request

notices = "--notices" in sys.argv
args = [a for a in sys.argv[1:] if a != "--notices"]
binary, moves = args[0], int(args[1])
work = tempfile.mkdtemp()
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
out = os.path.join(work, "cg.out")
env = dict(os.environ, DESPATCH_DATA_DIR=work, DESPATCH_BIND=f"127.0.0.1:{port}",
           DESPATCH_MOVE_RATE="off", DESPATCH_CREATE_RATE="off",
           DESPATCH_DISPATCHER="on" if notices else "off")
mail_dir = os.path.join(work, "mail")
if notices:
    os.mkdir(mail_dir)
    env["DESPATCH_MAIL_DIR"] = mail_dir
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
# Bert hears of every move (and of the game's creation): wait for the last mail, then until no
# more come for ten seconds.
seen, still = -1, 0
while notices and (seen < moves or still < 20):
    n = len(os.listdir(mail_dir))
    seen, still = n, (still + 1 if n == seen else 0)
    time.sleep(0.5)
p.send_signal(signal.SIGINT); p.wait(timeout=300)
total = 0
for line in open(out):
    m = re.match(r"(summary|totals): (\d+)", line)
    if m: total = int(m.group(2))
print(binary, moves, total, out, *([f"mails {len(os.listdir(mail_dir))}"] if notices else []))
