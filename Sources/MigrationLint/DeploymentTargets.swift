/// The oldest system versions an app deploys to, by platform (`iOS`, `macOS`, `visionOS`, `tvOS`,
/// `watchOS`), read from its build settings, XcodeGen spec or package manifest.
public struct DeploymentTargets: Sendable, Equatable {
    /// Platform → the lowest version any of its settings names.
    public var versions: [String: Version]
    /// Where the versions were read, for the finding to say.
    public var source: String

    public init(versions: [String: Version], source: String) {
        self.versions = versions
        self.source = source
    }

    /// A dotted version, compared by its numbers.
    public struct Version: Sendable, Comparable, Hashable, CustomStringConvertible {
        public var parts: [Int]

        public init?(_ text: some StringProtocol) {
            let parts = text.split(separator: ".").map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            self.parts = parts.compactMap { $0 }
        }

        /// The numbers without trailing zeros: 27 and 27.0 are one version.
        private var significant: ArraySlice<Int> {
            parts[..<((parts.lastIndex { $0 != 0 } ?? -1) + 1)]
        }

        public static func == (a: Version, b: Version) -> Bool { a.significant == b.significant }

        public func hash(into hasher: inout Hasher) { hasher.combine(Array(significant)) }

        public static func < (a: Version, b: Version) -> Bool {
            for index in 0..<max(a.parts.count, b.parts.count) {
                let x = index < a.parts.count ? a.parts[index] : 0
                let y = index < b.parts.count ? b.parts[index] : 0
                if x != y { return x < y }
            }
            return false
        }

        public var description: String { parts.map(String.init).joined(separator: ".") }
    }

    /// The platforms deploying below `version`.
    public func platforms(below version: Version) -> [String] {
        versions.filter { $0.value < version }.map(\.key).sorted()
    }

    /// Both sets, each platform at the lower of its two versions.
    public func merged(with other: DeploymentTargets) -> DeploymentTargets {
        var versions = self.versions
        for (platform, version) in other.versions where versions[platform].map({ version < $0 }) ?? true {
            versions[platform] = version
        }
        return DeploymentTargets(versions: versions, source: source + ", " + other.source)
    }

    /// Build settings (`IPHONEOS_DEPLOYMENT_TARGET = 26.0;` in a project file or an xcconfig).
    public static func buildSettings(_ text: String, file: String) -> DeploymentTargets? {
        let keys = [
            "IPHONEOS_DEPLOYMENT_TARGET": "iOS", "MACOSX_DEPLOYMENT_TARGET": "macOS",
            "XROS_DEPLOYMENT_TARGET": "visionOS",
            "TVOS_DEPLOYMENT_TARGET": "tvOS", "WATCHOS_DEPLOYMENT_TARGET": "watchOS",
        ]
        var versions: [String: Version] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard let equals = trimmed.firstIndex(of: "="),
                let platform = keys[trimmed[..<equals].trimmingSpaces()]
            else { continue }
            let value = trimmed[trimmed.index(after: equals)...].prefix { $0 != ";" }.filter { $0 != "\"" }
            guard let version = Version(value.trimmingSpaces()) else { continue }
            if versions[platform].map({ version < $0 }) ?? true { versions[platform] = version }
        }
        return versions.isEmpty ? nil : DeploymentTargets(versions: versions, source: file)
    }

    /// An XcodeGen spec's `deploymentTarget:` map (`iOS: "26.0"`), at the top or in a target.
    public static func xcodeGenSpec(_ text: String, file: String) -> DeploymentTargets? {
        var versions: [String: Version] = [:]
        var indent: Int?
        for line in text.split(separator: "\n") {
            let depth = line.prefix { $0 == " " }.count
            let content = line.dropFirst(depth)
            if content.hasPrefix("deploymentTarget:") {
                let value = content.dropFirst("deploymentTarget:".count).trimmingSpaces()
                if value.isEmpty { indent = depth } else { indent = nil }
                continue
            }
            guard let block = indent else { continue }
            guard depth > block, let colon = content.firstIndex(of: ":") else {
                indent = nil
                continue
            }
            let platform = content[..<colon].trimmingSpaces()
            let value = content[content.index(after: colon)...].filter { $0 != "\"" && $0 != "'" }
            guard ["iOS", "macOS", "visionOS", "tvOS", "watchOS"].contains(platform),
                let version = Version(value.trimmingSpaces())
            else { continue }
            if versions[platform].map({ version < $0 }) ?? true { versions[platform] = version }
        }
        return versions.isEmpty ? nil : DeploymentTargets(versions: versions, source: file)
    }

    /// A package manifest's `platforms:` (`.iOS(.v26)`, `.macOS("27.0")`, `.macOS(.v10_15)`); a
    /// manifest naming none deploys to the oldest systems the package manager supports.
    public static func packageManifest(_ text: String, file: String) -> DeploymentTargets {
        var versions: [String: Version] = [:]
        for platform in ["iOS", "macOS", "visionOS", "tvOS", "watchOS", "macCatalyst"] {
            var rest = Substring(text)
            while let range = rest.range(of: ".\(platform)(") {
                rest = rest[range.upperBound...]
                let argument = rest.prefix { $0 != ")" }.filter { $0 != "\"" && $0 != " " }
                let written = argument.hasPrefix(".v") ? argument.dropFirst(2).replacingUnderscores() : String(argument)
                if let version = Version(written), versions[platform].map({ version < $0 }) ?? true {
                    versions[platform] = version
                }
            }
        }
        if versions.isEmpty {
            // The package manager's own floor when a manifest names no platform.
            return DeploymentTargets(
                versions: ["iOS": Version("12.0")!, "macOS": Version("10.13")!],
                source: "\(file), which names no platforms (the package manager's oldest)")
        }
        return DeploymentTargets(versions: versions, source: file)
    }
}

extension StringProtocol {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? "." : $0 }) }
}
