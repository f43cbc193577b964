@preconcurrency import CLibXML2
import Foundation
import SpeechCore

/// A JUnit report: flat suites of cases with outcomes, properties and captured output.
public struct JUnitReport: Sendable {
    public enum Outcome: Sendable, Hashable {
        case passed
        /// An expectation or threshold was breached.
        case failure(message: String, details: String)
        /// The backend crashed, timed out, or the harness failed.
        case error(message: String, details: String)
        /// Not applicable (e.g. a capability the backend lacks), with the reason.
        case skipped(reason: String)
    }

    public struct Case: Sendable {
        public var classname: String
        public var name: String
        public var seconds: Double
        public var properties: [(String, String)]
        public var outcome: Outcome
        public var systemOut: String?

        public init(
            classname: String, name: String, seconds: Double, properties: [(String, String)] = [],
            outcome: Outcome = .passed,
            systemOut: String? = nil
        ) {
            self.classname = classname
            self.name = name
            self.seconds = seconds
            self.properties = properties
            self.outcome = outcome
            self.systemOut = systemOut
        }
    }

    public struct Suite: Sendable {
        public var name: String
        public var timestamp: Date
        public var cases: [Case]

        public init(name: String, timestamp: Date, cases: [Case]) {
            self.name = name
            self.timestamp = timestamp
            self.cases = cases
        }
    }

    public var name: String
    public var suites: [Suite]

    public init(name: String, suites: [Suite]) {
        self.name = name
        self.suites = suites
    }
}

/// Report files, written whole (atomically); a failure names the file and the system's reason (a
/// full disk, a missing folder), not Foundation's wrapper.
public enum ReportFile {
    public static func write(_ text: String, to path: String) throws(ReportError) {
        try write(Data(text.utf8), to: path)
    }

    /// Replaces `path` with `data` whole (see `FileWriting.replace`), or throws naming the file.
    public static func write(_ data: Data, to path: String) throws(ReportError) {
        if let reason = FileWriting.replace(path, with: data) { throw .write(path: path, reason: reason) }
    }
}

/// Why a report could not be written or is not valid.
public enum ReportError: Error, CustomStringConvertible, Sendable {
    case write(path: String, reason: String)
    case invalid(path: String, problems: [String])

    public var description: String {
        switch self {
        case .write(let path, let reason): return "\(path): cannot write report: \(reason)"
        case .invalid(let path, let problems):
            return "\(path): not valid JUnit XML: \(problems.prefix(5).joined(separator: "; "))"
        }
    }
}

/// Writes JUnit XML with libxml2's writer (escaping by the library, never by string building) and
/// validates files against the package's XSD.
public enum JUnitWriter {
    /// Text made safe for XML 1.0: characters XML forbids (most controls, lone surrogates already
    /// impossible in Swift strings, U+FFFE/U+FFFF) are dropped.
    public static func sanitize(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: scalars.append(scalar)
            default: continue
            }
        }
        return String(scalars)
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%.3f", locale: Locale(identifier: "en_US_POSIX"), value.isFinite ? max(0, value) : 0)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    public static func write(_ report: JUnitReport, to path: String) throws {
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Written to memory, then to the file in one checked write: libxml2's file writer reports a
        // failed flush (a full disk) only on its standard error, and would leave a cut-off file.
        guard let buffer = xmlBufferCreate() else {
            throw ReportError.write(path: path, reason: "libxml2 could not make a buffer")
        }
        defer { xmlBufferFree(buffer) }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
            throw ReportError.write(path: path, reason: "libxml2 could not make a writer")
        }
        var freed = false
        defer { if !freed { xmlFreeTextWriter(writer) } }
        xmlTextWriterSetIndent(writer, 1)
        var ok = xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil) >= 0
        func start(_ name: String) { ok = ok && xmlTextWriterStartElement(writer, name) >= 0 }
        func end() { ok = ok && xmlTextWriterEndElement(writer) >= 0 }
        func attribute(_ name: String, _ value: String) {
            ok = ok && xmlTextWriterWriteAttribute(writer, name, sanitize(value)) >= 0
        }
        func text(_ value: String) { ok = ok && xmlTextWriterWriteString(writer, sanitize(value)) >= 0 }
        func count(_ suite: JUnitReport.Suite, _ test: (JUnitReport.Outcome) -> Bool) -> Int {
            suite.cases.filter { test($0.outcome) }.count
        }
        let isFailure: (JUnitReport.Outcome) -> Bool = {
            if case .failure = $0 { return true }
            return false
        }
        let isError: (JUnitReport.Outcome) -> Bool = {
            if case .error = $0 { return true }
            return false
        }
        let isSkipped: (JUnitReport.Outcome) -> Bool = {
            if case .skipped = $0 { return true }
            return false
        }

        start("testsuites")
        attribute("name", report.name)
        attribute("tests", String(report.suites.reduce(0) { $0 + $1.cases.count }))
        attribute("failures", String(report.suites.reduce(0) { $0 + count($1, isFailure) }))
        attribute("errors", String(report.suites.reduce(0) { $0 + count($1, isError) }))
        attribute("skipped", String(report.suites.reduce(0) { $0 + count($1, isSkipped) }))
        attribute("time", seconds(report.suites.flatMap(\.cases).reduce(0) { $0 + $1.seconds }))
        for suite in report.suites {
            start("testsuite")
            attribute("name", suite.name)
            attribute("tests", String(suite.cases.count))
            attribute("failures", String(count(suite, isFailure)))
            attribute("errors", String(count(suite, isError)))
            attribute("skipped", String(count(suite, isSkipped)))
            attribute("time", seconds(suite.cases.reduce(0) { $0 + $1.seconds }))
            attribute("timestamp", timestamp(suite.timestamp))
            attribute("hostname", ProcessInfo.processInfo.hostName)
            for testCase in suite.cases {
                start("testcase")
                attribute("classname", testCase.classname)
                attribute("name", testCase.name)
                attribute("time", seconds(testCase.seconds))
                if !testCase.properties.isEmpty {
                    start("properties")
                    for (name, value) in testCase.properties {
                        start("property")
                        attribute("name", name)
                        attribute("value", value)
                        end()
                    }
                    end()
                }
                switch testCase.outcome {
                case .passed: break
                case .failure(let message, let details):
                    start("failure")
                    attribute("message", message)
                    attribute("type", "threshold")
                    text(details)
                    end()
                case .error(let message, let details):
                    start("error")
                    attribute("message", message)
                    attribute("type", "error")
                    text(details)
                    end()
                case .skipped(let reason):
                    start("skipped")
                    attribute("message", reason)
                    end()
                }
                if let out = testCase.systemOut, !out.isEmpty {
                    start("system-out")
                    text(out)
                    end()
                }
                end()
            }
            end()
        }
        end()
        ok = ok && xmlTextWriterEndDocument(writer) >= 0
        xmlFreeTextWriter(writer)
        freed = true
        guard ok, let bytes = xmlBufferContent(buffer) else {
            throw ReportError.write(path: path, reason: "libxml2 writer failed")
        }
        let data = Data(bytes: bytes, count: Int(xmlBufferLength(buffer)))
        try ReportFile.write(data, to: path)
    }

    /// Problems found validating `path` against the package's JUnit XSD (empty: valid).
    public static func validate(path: String) -> [String] {
        guard let schemaURL = Bundle.module.url(forResource: "junit", withExtension: "xsd"),
            let schemaParser = xmlSchemaNewParserCtxt(schemaURL.path)
        else { return ["the JUnit XSD is missing from the package"] }
        defer { xmlSchemaFreeParserCtxt(schemaParser) }
        guard let schema = xmlSchemaParse(schemaParser) else { return ["the JUnit XSD does not parse"] }
        defer { xmlSchemaFree(schema) }
        guard let validator = xmlSchemaNewValidCtxt(schema) else { return ["cannot create a validator"] }
        defer { xmlSchemaFreeValidCtxt(validator) }
        let collector = ErrorCollector()
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        xmlSchemaSetValidStructuredErrors(
            validator,
            { context, error in
                guard let context, let error, let message = error.pointee.message else { return }
                let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
                collector.problems.append(
                    "line \(error.pointee.line): "
                        + String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines))
            }, box.toOpaque())
        let status = xmlSchemaValidateFile(validator, path, 0)
        if status != 0 && collector.problems.isEmpty {
            collector.problems.append("validation failed (status \(status))")
        }
        return collector.problems
    }

    private final class ErrorCollector { var problems: [String] = [] }
}
