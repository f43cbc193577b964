# Sourced by scripts that compile or read Swift against the package's debug build: fills the array
# `module_flags` with what the compiler needs besides -I .build/debug/Modules to import its modules
# (the C modules' maps, the package's C headers, the system libraries' include paths).
module_flags=()
for map in Sources/C*/module.modulemap .build/debug/*.build/module.modulemap; do
  [ -f "$map" ] && module_flags+=(-Xcc "-fmodule-map-file=$map")
done
for dir in Sources/C*/include; do module_flags+=(-Xcc -I -Xcc "$dir"); done
for flag in $(pkg-config --cflags-only-I sndfile samplerate pocketsphinx libxml-2.0 spandsp 2>/dev/null); do
  module_flags+=(-Xcc "$flag")
done
