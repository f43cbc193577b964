"""Apple's public declarations as compile checks.

Reads a Swift interface file (Apple's Speech.swiftinterface for SDK 26, the 27.0 beta's) or the
declaration tables of SDK27-additions.md (the AVFoundation, AVFAudio and CoreMedia declarations
Speech's 27 signatures use) and turns every public declaration into a small piece of Swift that
compiles only if the same name exists here with the same shape: a function reference typed with
its full function type, a property read through a key path of its declared type, each case, each
conformance. Used by scripts/api-surface (python3 -m apisurface).
"""
