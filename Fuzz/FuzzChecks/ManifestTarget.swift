import Corpus

extension FuzzTarget {
    /// Manifests in the five layouts: the first byte picks the layout, the rest is its files
    /// (split at zero bytes where the layout has several). Audio must lie in the scratch folder,
    /// so no input reaches other files of the machine.
    static let manifest = FuzzTarget(
        name: "manifest", summary: "a manifest: JSON lines, NeMo, Kaldi, LibriSpeech or audiofolder",
        seeds: ["Tests/Fixtures/fuzz/manifest/*"]
    ) { bytes, scratch in
        guard let first = bytes.first else { return nil }
        let body = Array(bytes.dropFirst())
        let path: String
        switch ManifestFormat.allCases[Int(first) % ManifestFormat.allCases.count] {
        case .jsonl: path = scratch.write("manifest.jsonl", body)
        case .nemo: path = scratch.write("nemo.json", #"{"audio_filepath""#.utf8 + body)
        case .audiofolder: path = scratch.write("metadata.csv", body)
        case .kaldi:
            let files = parts(body, count: 4)
            for (name, part) in zip(["wav.scp", "text", "segments", "utt2spk"], files) {
                scratch.write("kaldi/" + name, part)
            }
            path = scratch.directory + "/kaldi"
        case .librispeech:
            scratch.write("libri/19/198/19-198.trans.txt", body)
            path = scratch.directory + "/libri"
        }
        let load = ManifestReader.load(path: path, options: ManifestOptions(corpusRoot: scratch.directory))
        for issue in load.issues + load.warnings where !issue.description.hasPrefix(scratch.directory) {
            return "an issue that does not start with its file: \(issue)"
        }
        for issue in load.issues where issue.line < 0 {
            return "an issue at line \(issue.line): \(issue)"
        }
        return load.utterances.count == load.lines.count ? nil : "utterances and their lines differ in number"
    }
}
