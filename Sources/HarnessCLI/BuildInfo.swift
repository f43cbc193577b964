/// How this binary was compiled, printed beside speed figures: they depend on it.
enum BuildInfo {
    /// `scripts/build-tool` compiles for the host's AVX2 and FMA level where the CPU has them.
    static var description: String {
        var parts: [String] = []
        #if DEBUG
            parts.append("debug")
        #else
            parts.append("release")
        #endif
        #if SPEECH_HARNESS_HOST_CPU
            parts.append("x86-64 with AVX2 and FMA (host CPU)")
        #elseif arch(x86_64)
            parts.append("baseline x86-64")
        #else
            parts.append("baseline")
        #endif
        return parts.joined(separator: ", ")
    }
}
