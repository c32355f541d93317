#!/usr/bin/env python3
"""A DOUBLE engine that plays like the built-in random bot and, at each newgame, tries every way
it knows to learn the other seats' hands:

- the referee's command line (`--seed N`), found among the processes in view;
- the run's files in DIR and in its working directory: records (their `seed` and the match seed
  in `tags.tournament`), progress files, a run secret (`*.secret`);
- brute force: match seeds 0 to 100 and any seed it found, checked against its own `newgame
  seed=` through the referee's seed algorithms (docs/random-draws.md, implemented here
  from that text alone);
- notes that its own processes in other rotations of the same deal (`--repeat`, known by its
  public start cards) left in the shared places /tmp, /var/tmp, /dev/shm and $HOME (or the
  directories in $CHEATER_NOTES, colon-separated).

It says what it found on stderr, `guess: SEAT=CARD,CARD,... SEAT=...` with the hands it names for
the other seats at the deal (from `referee session`, given the game seed), or `guess: none`.

Usage: cheater.py DIR. $REFEREE is the referee binary.
"""
import glob, json, os, re, subprocess, sys
from relay import relay, start_bot

MASK32, MASK64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF
SIGMA = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
RUN_DIR = sys.argv[1]
NOTE_DIRS = os.environ.get("CHEATER_NOTES", "").split(":") if os.environ.get("CHEATER_NOTES") \
    else ["/tmp", "/var/tmp", "/dev/shm", os.environ.get("HOME", "/tmp")]


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK32


def chacha8_first_u64(key_words, stream):
    """The first 64-bit number of stream STREAM of ChaCha8 keyed by KEY_WORDS (block 0)."""
    state = SIGMA + key_words + [0, 0, stream & MASK32, stream >> 32]
    x = list(state)

    def qr(a, b, c, d):
        x[a] = (x[a] + x[b]) & MASK32; x[d] = rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & MASK32; x[b] = rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & MASK32; x[d] = rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & MASK32; x[b] = rotl(x[b] ^ x[c], 7)

    for _ in range(4):
        qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15)
        qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14)
    w0 = (x[0] + state[0]) & MASK32
    w1 = (x[1] + state[1]) & MASK32
    return w0 | (w1 << 32)


def pcg_key(seed):
    """The eight key words PCG32 (XSH RR) draws from a 64-bit seed."""
    words, state = [], seed
    for _ in range(8):
        state = (state * 0x5851F42D4C957F2D + 0xA17654E46FBE17F3) & MASK64
        xorshifted = (((state >> 18) ^ state) >> 27) & MASK32
        rot = state >> 59
        words.append(((xorshifted >> rot) | (xorshifted << ((32 - rot) & 31))) & MASK32)
    return words


def game_seed(match_seed, group):
    return chacha8_first_u64(pcg_key(match_seed), group)


def engine_seed(seed, index, seat):
    return chacha8_first_u64(pcg_key(seed), (1 << 62) + 8 * index + seat)


def secret_words(hex_text):
    raw = bytes.fromhex(hex_text)
    return [int.from_bytes(raw[i:i + 4], "little") for i in range(0, 32, 4)]


def seeds_from_files():
    """Match seeds, game seeds and secrets found in the run's files and on command lines."""
    match_seeds, game_seeds, secrets = set(), set(), set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            words = open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace").split("\0")
        except OSError:
            continue
        for flag, value in zip(words, words[1:]):
            if flag == "--seed" and value.isdigit():
                match_seeds.add(int(value))
    for where in {RUN_DIR, os.getcwd()}:
        for path in glob.glob(os.path.join(where, "**", "*"), recursive=True):
            try:
                text = open(path, errors="replace").read(1 << 22)
            except OSError:
                continue
            match_seeds.update(int(s) for s in re.findall(r"seed=(\d+)", text))
            game_seeds.update(int(s) for s in re.findall(r'"seed":(\d+)', text))
            if path.endswith(".secret") and re.fullmatch(r"[0-9a-f]{64}\s*", text):
                secrets.add(text.strip())
    return match_seeds, game_seeds, secrets


def candidate_game_seeds(my_seed, seat, seats):
    """Game seeds that any channel gives away for this game (a game of several rotations may
    have more than one candidate; the hand dealt tells them apart)."""
    match_seeds, game_seeds, secrets = seeds_from_files()
    found = []
    for hex_text in secrets:
        key = secret_words(hex_text)
        for index in range(64):
            if chacha8_first_u64(key, (1 << 63) + 8 * index + seat) == my_seed:
                found += [chacha8_first_u64(key, g) for g in {index, index // seats}]
    for gs in game_seeds:
        if any(engine_seed(gs, index, seat) == my_seed for index in range(64)):
            found.append(gs)
    for s in sorted(match_seeds | set(range(101))):
        for index in range(16):
            for group in {index, index // seats}:
                gs = game_seed(s, group)
                if engine_seed(gs, index, seat) == my_seed:
                    found.append(gs)
    return found


def hands_of(seed, seats):
    """Every seat's hand at the deal of the game of seed SEED, from a referee session."""
    out = subprocess.run([os.environ["REFEREE"], "session", "--plain"], capture_output=True,
                         text=True, input=f"newgame double seats={seats} seed={seed}\nshowboard\n"
                         ).stdout
    hands = {}
    for line in out.splitlines():
        m = re.match(r"seat (\d+)\b.*cards: (.*)", line)
        if m:
            hands[int(m.group(1))] = sorted(c.split(":")[0] for c in m.group(2).split())
    return hands


def notes_for(start, seat, hand):
    """The hands that this cheater's processes in other rotations of the deal that began with
    the public cards START wrote down (seats keep their hands from rotation to rotation); a note
    that gives SEAT another HAND is of another deal that began with the same cards."""
    hands = {}
    for where in NOTE_DIRS:
        for path in glob.glob(os.path.join(where, "cheater-*.json")):
            try:
                note = json.load(open(path))
                noted = {int(k): v for k, v in note["hands"].items()}
                if note["start"] == start and noted.get(seat, hand) == hand:
                    hands.update(noted)
            except (OSError, ValueError, KeyError, AttributeError):
                continue
    return hands or None


def leave_notes(start, hands):
    for where in NOTE_DIRS:
        try:
            with open(os.path.join(where, f"cheater-{os.getpid()}-{abs(hash(tuple(start)))}.json"), "w") as f:
                json.dump({"start": start, "hands": hands}, f)
        except OSError:
            pass


def guess(game):
    """The other seats' hands, from a candidate seed whose deal gives this seat its own hand, or
    from notes of another rotation."""
    for gs in game["candidates"]:
        hands = hands_of(gs, game["seats"])
        if hands.get(game["seat"]) == game["hand"]:
            return hands
    return notes_for(game["start"], game["seat"], game["hand"])


bot = start_bot("double")
game = None
for line in sys.stdin.buffer:
    words = line.decode(errors="replace").split()
    if words[1:2] == ["newgame"]:
        options = dict(w.split("=", 1) for w in words[3:] if "=" in w)
        seats, seat, my_seed = int(options["seats"]), int(options["seat"]), int(options["seed"])
        game = {"seat": seat, "seats": seats, "hand": [], "start": [], "guessed": False,
                "candidates": candidate_game_seeds(my_seed, seat, seats)}
    elif game and words[1:3] == ["event", "deal"]:
        if words[3:4] == [str(game["seat"])] and len(words) > 4:
            game["hand"] = sorted(game["hand"] + [words[4].split(":")[0]])
    elif game and words[1:3] == ["event", "start"]:
        game["start"].append(" ".join(words[3:]))
    elif game and game["hand"] and not game["guessed"]:
        # The deal is over: the hand is whole.
        game["guessed"] = True
        hands = guess(game)
        leave_notes(game["start"], {game["seat"]: game["hand"], **(hands or {})})
        named = " ".join(f"{s}={','.join(h)}" for s, h in sorted((hands or {}).items())
                         if s != game["seat"])
        print(f"guess: {named or 'none'}", file=sys.stderr, flush=True)
    relay(bot, line)
