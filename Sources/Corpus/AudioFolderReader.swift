import Foundation

/// A Hugging Face "audiofolder" dataset: audio files under a folder and a `metadata.csv` whose
/// `file_name` column names each file (relative to the folder) and another column holds its
/// transcript (`transcription`, `text`, `sentence`, `transcript` or `reference`). Optional
/// columns: `id`, `speaker_id` (or `speaker`, `client_id`), `locale` (or `language`), `duration`.
enum AudioFolderReader {
    static let transcriptColumns = ["transcription", "text", "sentence", "transcript", "reference"]
    static let speakerColumns = ["speaker_id", "speaker", "client_id"]
    static let localeColumns = ["locale", "language"]

    /// `path` is the folder or its `metadata.csv`.
    static func load(path: String, locale: String) -> ManifestLoad {
        var isDirectory: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        let file = isFolder ? path + "/metadata.csv" : path
        var load = ManifestLoad(file: file, root: ManifestReader.directory(of: file))
        guard let lines = ManifestReader.readLines(file, into: &load) else { return load }
        let rows: [CSVRow]
        do {
            rows = try CSVRow.parse(lines.joined(separator: "\n"))
        } catch {
            load.issues.append(ManifestIssue(file: file, line: error.line, problem: .malformedCSV(error.reason)))
            return load
        }
        guard let header = rows.first else {
            load.issues.append(ManifestIssue(file: file, line: 1, problem: .missingField("header row")))
            return load
        }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        func column(_ names: [String]) -> Int? { names.lazy.compactMap { columns.firstIndex(of: $0) }.first }
        guard let fileColumn = column(["file_name"]) else {
            load.issues.append(
                ManifestIssue(
                    file: file, line: 1,
                    problem: .missingField("file_name (columns: \(columns.joined(separator: ", ")))")))
            return load
        }
        guard let textColumn = column(transcriptColumns) else {
            load.issues.append(
                ManifestIssue(
                    file: file, line: 1,
                    problem: .missingField(
                        "a transcript column (\(transcriptColumns.joined(separator: ", "))); columns: \(columns.joined(separator: ", "))"
                    )))
            return load
        }
        let idColumn = column(["id"]), speakerColumn = column(speakerColumns), localeColumn = column(localeColumns)
        let durationColumn = column(["duration"])
        var firstLine: [String: Int] = [:]
        for row in rows.dropFirst() where !(row.fields.count == 1 && row.fields[0].isEmpty) {
            let fields = RecordFields(file: file, line: row.line)
            ManifestReader.record(fields, into: &load) { load in
                guard row.fields.count == columns.count else {
                    throw fields.issue(
                        .invalidValue(
                            field: "row", reason: "\(row.fields.count) fields, the header has \(columns.count)"))
                }
                let audio = row.fields[fileColumn]
                let id = idColumn.map { row.fields[$0] } ?? audio
                fields.utteranceID = id
                var duration = -1.0
                if let durationColumn, !row.fields[durationColumn].isEmpty {
                    guard let value = Double(row.fields[durationColumn]), value > 0, value.isFinite else {
                        throw fields.issue(
                            .invalidValue(field: "duration", reason: "must be a positive number of seconds"))
                    }
                    duration = value
                }
                let utterance = Utterance(
                    // A line break inside a quoted transcript is layout, not text.
                    id: id, audio: audio, reference: row.fields[textColumn].replacingOccurrences(of: "\n", with: " "),
                    locale: localeColumn.map { row.fields[$0] }.flatMap { $0.isEmpty ? nil : $0 } ?? locale,
                    speaker: speakerColumn.map { row.fields[$0] }.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown",
                    task: "unknown", duration: duration)
                try ManifestReader.check(utterance, fields: fields, durationKnown: duration >= 0)
                if let first = firstLine[id] { throw fields.issue(.duplicateID(id, firstLine: first)) }
                firstLine[id] = row.line
                load.append(utterance, line: row.line)
            }
        }
        return load
    }
}

/// One record of a CSV file (RFC 4180: quoted fields may hold commas, quotes as `""`, and line
/// breaks), with the line it starts on.
struct CSVRow: Equatable {
    var line: Int
    var fields: [String]

    struct Malformed: Error, Equatable {
        var line: Int
        var reason: String
    }

    static func parse(_ text: String) throws(Malformed) -> [CSVRow] {
        var rows: [CSVRow] = []
        var fields: [String] = [], field = ""
        var line = 1, rowLine = 1
        var quoted = false, wasQuoted = false
        var characters = text.makeIterator()
        var pending: Character?
        func next() -> Character? {
            if let c = pending {
                pending = nil
                return c
            }
            return characters.next()
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                            continue
                        }
                        pending = following
                    }
                    quoted = false
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty && !wasQuoted else {
                    throw Malformed(line: line, reason: "a quote inside an unquoted field")
                }
                quoted = true
                wasQuoted = true
            case ",":
                fields.append(field)
                field = ""
                wasQuoted = false
            case "\n", "\r\n":
                fields.append(field)
                rows.append(CSVRow(line: rowLine, fields: fields))
                fields = []
                field = ""
                wasQuoted = false
                line += 1
                rowLine = line
            default:
                guard !wasQuoted else { throw Malformed(line: line, reason: "text after a closing quote") }
                field.append(c)
            }
        }
        if quoted { throw Malformed(line: rowLine, reason: "a quoted field is not closed") }
        if !fields.isEmpty || !field.isEmpty || wasQuoted {
            fields.append(field)
            rows.append(CSVRow(line: rowLine, fields: fields))
        }
        return rows
    }
}
