#!/usr/bin/env python3
"""Whisper's text normalisers from the PyPI package whisper-normalizer (the reference that
Metrics.WhisperTextNormalizer reproduces): reads a JSON list of strings on stdin and writes a JSON
list of [english, basic] pairs on stdout, plus the package version on stderr."""
import json
import sys
from importlib.metadata import version

from whisper_normalizer.basic import BasicTextNormalizer
from whisper_normalizer.english import EnglishTextNormalizer

english, basic = EnglishTextNormalizer(), BasicTextNormalizer()
texts = json.load(sys.stdin)
json.dump([[english(t), basic(t)] for t in texts], sys.stdout)
print(version("whisper-normalizer"), file=sys.stderr)
