#!/usr/bin/env python3
"""A worker that misbehaves on purpose, for the harness's fault tests (standard library only).

FAULT_MODE: exit-at-start | crash-mid | hang | garbage | oversized | error | ok | random
FAULT_AFTER: how many audio requests to answer normally first (default 2).
The 'ok' mode recognises one word "ok" per finalize, to check the happy path.
It speaks protocol 2 when the harness offers it (audio as binary frames, no reply to audio; a
fault mid-utterance then shows at the harness's next read), protocol 1 otherwise.
The 'random' mode behaves like 'ok' except on a share FAULT_RATE (default 0.1) of sessions, where
it crashes, hangs or answers garbage when asked to finalise. Which sessions, and which fault,
follow from a hash of FAULT_SEED and all of the session's audio, so the same utterance always
meets the same fate and a run can be compared with a clean one.
"""
import base64
import hashlib
import json
import os
import sys
import time

mode = os.environ.get("FAULT_MODE", "ok")
after = int(os.environ.get("FAULT_AFTER", "2"))
rate = float(os.environ.get("FAULT_RATE", "0.1"))
seed = os.environ.get("FAULT_SEED", "0")
heard = {}
print(f"fault worker starting in mode {mode}", file=sys.stderr, flush=True)
if mode == "exit-at-start":
    print("fault worker: failing at start as asked", file=sys.stderr, flush=True)
    sys.exit(3)


def random_fault(session):
    """The fault for this session (None for most), from everything it heard."""
    digest = heard.pop(session, hashlib.sha256(seed.encode())).digest()
    draw = int.from_bytes(digest[:4], "big") / 2**32
    return ["crash-mid", "hang", "garbage"][digest[4] % 3] if draw < rate else None


def misbehave(fault, where):
    """Carries out a fault; True when the request has been answered (badly) and the loop goes on."""
    if fault == "crash-mid":
        print(f"fault worker: crashing {where}", file=sys.stderr, flush=True)
        os._exit(9)
    if fault == "hang":
        print(f"fault worker: hanging {where}", file=sys.stderr, flush=True)
        time.sleep(3600)
    if fault == "garbage":
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
        return True
    if fault == "oversized":
        sys.stdout.write("{\"type\":\"hypothesis\",\"pad\":\"" + "x" * (9 * 1024 * 1024) + "\"}\n")
        sys.stdout.flush()
        return True
    if fault == "error":
        reply({"type": "error", "message": "planted worker error"})
        return True
    return False


current = {}


def reply(obj):
    if version >= 2 and "id" in current:
        obj["id"] = current["id"]
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


audio_seen = 0
consumed = {}
version = 1
stdin = sys.stdin.buffer
while True:
    line = stdin.readline()
    if not line:
        break
    msg = json.loads(line)
    current = msg
    kind = msg["type"]
    if kind == "hello":
        version = 2 if int(msg.get("protocol", 1)) >= 2 else 1
        reply({"type": "ready", "protocol": version, "engine": "fault", "locales": ["en-US"], "sampleRate": 16000,
               "partialResults": False, "wordTimes": True, "alternatives": False, "confidence": False, "loadSeconds": 0})
    elif kind == "start":
        consumed[msg["session"]] = 0.0
        reply({"type": "started", "session": msg["session"]})
    elif kind == "audio":
        audio_seen += 1
        raw = stdin.read(int(msg["bytes"])) if version >= 2 else base64.b64decode(msg["samples"])
        current = {}    # protocol 2: what is said now is news, not a reply
        if mode == "random":
            heard.setdefault(msg["session"], hashlib.sha256(seed.encode())).update(raw)
        active = mode if audio_seen > after and mode not in ("ok", "random") else None
        if active and misbehave(active, "mid-utterance"):
            continue
        consumed[msg["session"]] = float(msg["start"]) + len(raw) // 2 / 16000.0
        if version == 1:
            reply({"type": "hypothesis", "session": msg["session"], "finalized": [], "volatile": None,
                   "finalizedThrough": 0.0})
    elif kind == "finalize":
        fault = random_fault(msg["session"]) if mode == "random" else None
        if fault and misbehave(fault, "at finalize"):
            continue
        end = min(float(msg["through"]), consumed.get(msg["session"], 0.0))
        words = [{"text": "ok", "start": 0.0, "end": min(end, 0.5)}] if end > 0 else []
        reply({"type": "hypothesis", "session": msg["session"],
               "finalized": [{"start": 0.0, "end": end, "words": words, "alternatives": []}] if words else [],
               "volatile": None, "finalizedThrough": end})
    elif kind == "cancel":
        reply({"type": "hypothesis", "session": msg["session"], "finalized": [], "volatile": None,
               "finalizedThrough": float(msg["before"])})
    elif kind == "end":
        reply({"type": "ended", "session": msg["session"]})
    elif kind == "shutdown":
        break
