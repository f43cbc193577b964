"""The cardinals 0-99 in es, fr, it and ru as num2words (PyPI) writes them: the reference the
spoken forms of Sources/Metrics/SpokenLanguages.swift are checked against. Prints JSON
{"es": [...100 words...], ...} and num2words's version on standard error."""
import json
import sys
from importlib.metadata import version

from num2words import num2words

json.dump({lang: [num2words(n, lang=lang) for n in range(100)] for lang in ("es", "fr", "it", "ru")}, sys.stdout,
          ensure_ascii=False)
print(version("num2words"), file=sys.stderr)
