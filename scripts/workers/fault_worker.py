#!/usr/bin/env python3
"""A worker that misbehaves on purpose, for the harness's fault tests (standard library only).

FAULT_MODE: exit-at-start | crash-mid | hang | garbage | oversized | error | ok
FAULT_AFTER: how many audio requests to answer normally first (default 2).
The 'ok' mode recognises one word "ok" per finalize, to check the happy path.
"""
import json
import os
import sys
import time

mode = os.environ.get("FAULT_MODE", "ok")
after = int(os.environ.get("FAULT_AFTER", "2"))
print(f"fault worker starting in mode {mode}", file=sys.stderr, flush=True)
if mode == "exit-at-start":
    print("fault worker: failing at start as asked", file=sys.stderr, flush=True)
    sys.exit(3)


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


audio_seen = 0
consumed = {}
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        reply({"type": "ready", "protocol": 1, "engine": "fault", "locales": ["en-US"], "sampleRate": 16000,
               "partialResults": False, "wordTimes": True, "alternatives": False, "confidence": False, "loadSeconds": 0})
    elif kind == "start":
        consumed[msg["session"]] = 0.0
        reply({"type": "started", "session": msg["session"]})
    elif kind == "audio":
        audio_seen += 1
        if audio_seen > after:
            if mode == "crash-mid":
                print("fault worker: crashing mid-utterance", file=sys.stderr, flush=True)
                os._exit(9)
            if mode == "hang":
                print("fault worker: hanging", file=sys.stderr, flush=True)
                time.sleep(3600)
            if mode == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if mode == "oversized":
                sys.stdout.write("{\"type\":\"hypothesis\",\"pad\":\"" + "x" * (9 * 1024 * 1024) + "\"}\n")
                sys.stdout.flush()
                continue
            if mode == "error":
                reply({"type": "error", "message": "planted worker error"})
                continue
        samples = len(msg["samples"]) * 3 // 4 // 2
        consumed[msg["session"]] = float(msg["start"]) + samples / 16000.0
        reply({"type": "hypothesis", "session": msg["session"], "finalized": [], "volatile": None,
               "finalizedThrough": 0.0})
    elif kind == "finalize":
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
