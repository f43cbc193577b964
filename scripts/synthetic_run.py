"""Writes two bench stores of made-up records (a run and a baseline that differs on about one
utterance in ten) so the report pages can be checked at a size no test corpus has.

Usage: synthetic_run.py DIR UTTERANCES [ENGINES]
Writes DIR/run/utterances.jsonl, DIR/baseline/utterances.jsonl and DIR/clip.wav (the audio every
record points to). Seeded: the same arguments give the same files.
"""
import json
import math
import os
import random
import struct
import sys
import wave

DIGITS = "zero one two three four five six seven eight nine".split()


def pralign(steps):
    """sclite's pralign lines, as Alignment.pralign writes them."""
    ref, hyp, ev = "", "", ""
    for kind, r, h in steps:
        if kind == "c":
            cells = (r, h, "")
        elif kind == "s":
            cells = (r.upper(), h.upper(), "S")
        elif kind == "d":
            cells = (r.upper(), "*" * len(r), "D")
        else:
            cells = ("*" * len(h), h.upper(), "I")
        width = max(len(c) for c in cells)
        ref, hyp, ev = ref + cells[0].ljust(width) + " ", hyp + cells[1].ljust(width) + " ", ev + cells[2].ljust(width) + " "
    return "" if not steps else f"REF:  {ref}\nHYP:  {hyp}\nEval: {ev}"


def record(rng, engine, index, words, error_rate, audio):
    steps = []
    for word in words:
        roll = rng.random()
        if roll < error_rate / 3:
            steps.append(("s", word, rng.choice([d for d in DIGITS if d != word])))
        elif roll < 2 * error_rate / 3:
            steps.append(("d", word, None))
        else:
            steps.append(("c", word, word))
        if rng.random() < error_rate / 3:
            steps.append(("i", None, rng.choice(DIGITS)))
    counts = {"hits": 0, "substitutions": 0, "deletions": 0, "insertions": 0}
    for kind, _, _ in steps:
        counts[{"c": "hits", "s": "substitutions", "d": "deletions", "i": "insertions"}[kind]] += 1
    hypothesis = [h for kind, _, h in steps if kind != "d"]
    spans = [{"word": w, "start": round(0.25 + 0.7 * i, 3), "end": round(0.85 + 0.7 * i, 3)} for i, w in enumerate(words)]
    seconds = round(spans[-1]["end"] + 0.25, 3)
    events = []
    for i in range(1, len(hypothesis)):
        events.append({"time": round(0.4 + 0.7 * i, 3), "isFinal": False, "words": hypothesis[:i], "rangeStart": 0.0, "rangeEnd": round(0.3 + 0.7 * i, 3)})
    events.append({"time": round(seconds + 0.2, 3), "isFinal": True, "words": hypothesis, "rangeStart": 0.0, "rangeEnd": seconds})
    return {
        "engine": engine, "manifest": "synthetic/manifest.jsonl", "id": f"synthetic-{index:05d}", "speaker": f"speaker-{index % 40:02d}",
        "task": "digits", "tier": f"synthetic-tier-{index % 4}", "audioSeconds": seconds, "reference": " ".join(words),
        "hypothesis": " ".join(hypothesis), "policy": "digits", "words": counts,
        "characters": {"hits": 0, "substitutions": 0, "deletions": 0, "insertions": 0},
        "computeSeconds": round(seconds / 50, 4), "wallSeconds": round(seconds / 45, 4), "computeClock": "cpu", "loadSeconds": 0.001,
        "timeline": {"events": events, "referenceWords": spans, "audioEnd": seconds},
        "measures": {"emissionDelays": [], "hadRevisions": False, "firstPartialLatency": 0.15, "finalizationLatency": 0.45},
        "alignment": pralign(steps), "audio": audio,
    }


def main(directory, utterances, engines):
    os.makedirs(f"{directory}/run", exist_ok=True)
    os.makedirs(f"{directory}/baseline", exist_ok=True)
    audio = os.path.abspath(f"{directory}/clip.wav")
    with wave.open(audio, "wb") as clip:
        clip.setnchannels(1)
        clip.setsampwidth(2)
        clip.setframerate(16000)
        clip.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * t / 16000))) for t in range(16000)))
    references = random.Random(1)
    texts = [[references.choice(DIGITS) for _ in range(references.randint(3, 8))] for _ in range(utterances)]
    for name, seed in (("run", 2), ("baseline", 3)):
        with open(f"{directory}/{name}/utterances.jsonl", "w", encoding="utf-8") as store:
            for e in range(engines):
                rng, same = random.Random(seed * 100 + e), random.Random(e)
                for index, words in enumerate(texts):
                    # Nine utterances in ten are decoded alike in both runs.
                    source = same if index % 10 else rng
                    store.write(json.dumps(record(source, f"engine-{e}", index, words, 0.1 + 0.1 * e, audio), sort_keys=True) + "\n")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) == 4 else 2)
