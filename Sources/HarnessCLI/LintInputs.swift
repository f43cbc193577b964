import Foundation
import MigrationLint
import Reports
import SpeechCore

/// The files a lint run reads: Swift sources, and the usage-description keys of the app's
/// property lists and build settings, in projects. The SPI is for the fuzz targets (Fuzz/FuzzChecks).
@_spi(Fuzzing) public struct LintInputs {
    /// What one Swift package, Xcode project or XcodeGen spec holds (the folder with its
    /// `Package.swift`, `.xcodeproj` or `project.yml`; or a pod's, a JavaScript module's or a
    /// Flutter package's `.podspec`, `package.json` or `pubspec.yaml`), or the files outside any: linted together
    /// and apart from the other projects, so that a call is followed only into code the same
    /// project compiles, and judged by its own app's settings.
    struct Project {
        var root: String
        var swiftFiles: [String] = []
        var settingsFiles: [String] = []
        var specs: [String] = []
        var context = ProjectContext()
    }

    var swiftFiles: [String] = []
    var projects: [Project] = []
    var unreadable: [(String, String)] = []

    static let usageKeys = ["NSMicrophoneUsageDescription", "NSSpeechRecognitionUsageDescription"]

    static func collect(_ paths: [String], infoPlists: [String]) -> LintInputs {
        var inputs = LintInputs()
        var projects: [String: Project] = [:]
        // Every file with the folder it was found under (its project is the nearest folder with a
        // project marker, else that folder).
        var found: [(file: String, top: String, kind: FileKind)] = []
        var markers: Set<String> = []
        // Xcode projects by the folder that holds them (a folder may hold several side by side).
        var xcodeProjects: [String: [String]] = [:]
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                inputs.unreadable.append((path, "no such file or folder"))
                continue
            }
            guard isDirectory.boolValue else {
                found.append((path, "", .swift))
                continue
            }
            let root = URL(fileURLWithPath: path)
            guard
                let walker = manager.enumerator(
                    at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
            else { continue }
            for case let url as URL in walker {
                // Build output, and bundles that are not an app's sources: a documentation set's or a
                // framework's Info.plist describes that bundle, not the app.
                if url.lastPathComponent == ".build" || url.lastPathComponent == "DerivedData"
                    || Self.foreignBundles.contains(url.pathExtension)
                {
                    walker.skipDescendants()
                    continue
                }
                let relative =
                    path.hasSuffix("/")
                    ? path + url.path.dropFirst(root.path.count + 1)
                    : path + "/" + url.path.dropFirst(root.path.count + 1)
                let folder = Self.folder(of: relative)
                switch url.pathExtension {
                case "swift":
                    if url.lastPathComponent == "Package.swift" { markers.insert(folder) }
                    found.append((relative, path, .swift))
                case "xcodeproj":
                    markers.insert(folder)
                    xcodeProjects[folder, default: []].append(relative)
                case "pbxproj", "xcconfig": found.append((relative, path, .settings))
                case "plist" where url.lastPathComponent.hasSuffix("Info.plist") && infoPlists.isEmpty:
                    found.append((relative, path, .settings))
                // Other build manifests that hold native Swift code: a CocoaPods pod, a React Native,
                // Expo or Capacitor module, a Flutter app or plugin. Their folders are projects too,
                // so that a folder of such modules is not linted as one.
                case "podspec": markers.insert(folder)
                case "json" where url.lastPathComponent == "package.json": markers.insert(folder)
                case "yaml" where url.lastPathComponent == "pubspec.yaml": markers.insert(folder)
                case "yml" where url.deletingPathExtension().lastPathComponent == "project",
                    "yaml" where url.deletingPathExtension().lastPathComponent == "project":
                    markers.insert(folder)
                    found.append((relative, path, .spec))
                default: break
                }
            }
        }
        for (file, top, kind) in found {
            let root = Self.project(of: file, top: top, markers: markers)
            var project = projects[root] ?? Project(root: root)
            switch kind {
            case .swift: project.swiftFiles.append(file)
            case .settings: project.settingsFiles.append(file)
            case .spec: project.specs.append(file)
            }
            projects[root] = project
        }
        for (folder, xcodeprojs) in xcodeProjects where xcodeprojs.count > 1 {
            guard let shared = projects.removeValue(forKey: folder) else { continue }
            for part in Self.split(shared, among: xcodeprojs.sorted()) { projects[part.root] = part }
        }
        // Property lists named on the command line belong to every project.
        for root in projects.keys { projects[root]?.settingsFiles += infoPlists }
        if projects.isEmpty, !infoPlists.isEmpty { projects[""] = Project(root: "", settingsFiles: infoPlists) }
        for root in projects.keys.sorted() {
            guard var project = projects[root] else { continue }
            project.swiftFiles.sort()
            project.context = Self.context(project, unreadable: &inputs.unreadable)
            if !project.swiftFiles.isEmpty { inputs.projects.append(project) }
            inputs.swiftFiles += project.swiftFiles
        }
        inputs.swiftFiles.sort()
        return inputs
    }

    enum FileKind { case swift, settings, spec }

    /// Several Xcode projects side by side in one folder, each with its own app: a file belongs to
    /// the project whose groups name its first folder under them (Xcode writes
    /// `path = SpeechTranscriberExample;` for a group over that folder); a project's own
    /// `project.pbxproj` belongs to it. Files no project claims, or several do, stay together
    /// under the folder.
    static func split(_ shared: Project, among xcodeprojs: [String]) -> [Project] {
        let prefix = shared.root.isEmpty ? "" : shared.root + "/"
        var parts = xcodeprojs.map { Project(root: $0) }
        let groups = xcodeprojs.map { xcodeproj -> Set<String> in
            let text = FileContents.read(atPath: xcodeproj + "/project.pbxproj").map {
                String(decoding: $0, as: UTF8.self)
            }
            return Set(text.map(groupPaths) ?? [])
        }
        var rest = Project(root: shared.root, specs: shared.specs)
        func owner(_ file: String) -> Int? {
            if let own = xcodeprojs.firstIndex(where: { file.hasPrefix($0 + "/") }) { return own }
            guard file.hasPrefix(prefix) else { return nil }
            let relative = file.dropFirst(prefix.count)
            guard let first = relative.split(separator: "/").first, relative.contains("/") else { return nil }
            let claims = groups.indices.filter { groups[$0].contains(String(first)) }
            return claims.count == 1 ? claims[0] : nil
        }
        for file in shared.swiftFiles {
            if let index = owner(file) { parts[index].swiftFiles.append(file) } else { rest.swiftFiles.append(file) }
        }
        for file in shared.settingsFiles {
            if let index = owner(file) {
                parts[index].settingsFiles.append(file)
            } else {
                rest.settingsFiles.append(file)
            }
        }
        return parts + [rest]
    }

    /// The `path = …;` values of a project file's groups and references.
    static func groupPaths(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "path = ") else { return nil }
            let value = line[range.upperBound...].prefix { $0 != ";" }
            return value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
    }

    static func folder(of file: String) -> String {
        file.lastIndex(of: "/").map { String(file[..<$0]) } ?? ""
    }

    /// The nearest folder above `file` (up to `top`, the folder the run was given) that holds a
    /// project marker, else `top`.
    static func project(of file: String, top: String, markers: Set<String>) -> String {
        var folder = folder(of: file)
        while folder.count > top.count, folder.hasPrefix(top) {
            if markers.contains(folder) { return folder }
            folder = Self.folder(of: folder)
        }
        return top
    }

    /// What a project's own settings files say of its app.
    static func context(_ project: Project, unreadable: inout [(String, String)]) -> ProjectContext {
        var context = ProjectContext()
        var keys: Set<String> = []
        for file in project.settingsFiles + project.specs {
            switch usageKeys(in: file) {
            case .success(let found): keys.formUnion(found)
            case .failure(let reason): unreadable.append((file, reason.message))
            }
        }
        context.appTarget =
            project.settingsFiles.first { isAppEvidence($0) } ?? project.specs.first { isAppEvidence($0) }
        if context.appTarget != nil { context.usageDescriptionKeys = keys }
        context.iOSApp = (project.settingsFiles + project.specs).lazy.compactMap(iOSEvidence).first
        context.absentInfoPlist =
            project.settingsFiles.filter { $0.hasSuffix(".pbxproj") }.lazy.compactMap(
                absentInfoPlist
            ).first
        context.deploymentTargets = deploymentTargets(project)
        return context
    }

    /// The oldest systems the project deploys to, from its build settings, XcodeGen spec and
    /// package manifest; nil when none of them is in the folder.
    static func deploymentTargets(_ project: Project) -> DeploymentTargets? {
        let text = { (file: String) in FileContents.read(atPath: file).map { String(decoding: $0, as: UTF8.self) } }
        var found: [DeploymentTargets] = []
        for file in project.settingsFiles where file.hasSuffix(".pbxproj") || file.hasSuffix(".xcconfig") {
            if let settings = text(file).flatMap({ DeploymentTargets.buildSettings($0, file: file) }) {
                found.append(settings)
            }
        }
        for file in project.specs {
            if let spec = text(file).flatMap({ DeploymentTargets.xcodeGenSpec($0, file: file) }) { found.append(spec) }
        }
        for file in project.swiftFiles where file == "Package.swift" || file.hasSuffix("/Package.swift") {
            if Self.folder(of: file) == project.root, let manifest = text(file) {
                found.append(DeploymentTargets.packageManifest(manifest, file: file))
            }
        }
        return found.dropFirst().reduce(found.first) { $0?.merged(with: $1) }
    }

    /// The first `INFOPLIST_FILE` a project file names that does not exist beside its project
    /// (the path is relative to the folder holding the `.xcodeproj`).
    static func absentInfoPlist(_ pbxproj: String) -> String? {
        guard let text = FileContents.read(atPath: pbxproj).map({ String(decoding: $0, as: UTF8.self) }) else {
            return nil
        }
        let base = folder(of: folder(of: pbxproj))
        for line in text.split(separator: "\n") {
            // INFOPLIST_FILE itself, not GENERATE_INFOPLIST_FILE.
            guard let range = line.range(of: "INFOPLIST_FILE = "),
                line[..<range.lowerBound].allSatisfy({ $0 == " " || $0 == "\t" })
            else { continue }
            let value = line[range.upperBound...].prefix { $0 != ";" }.trimmingCharacters(
                in: CharacterSet(charactersIn: "\" "))
            guard !value.isEmpty, !value.contains("$") else { continue }
            let path = value.hasPrefix("/") ? value : (base.isEmpty ? value : base + "/" + value)
            if !FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Folders holding a built bundle of another kind (`Docs.docset/Contents/Info.plist`).
    static let foreignBundles: Set<String> = ["docset", "framework", "xcframework", "bundle", "xctest"]

    /// Whether a file shows an app target: an Info.plist; a project with an application product,
    /// or INFOPLIST_KEY_ settings where it names no product type (a framework's or a test bundle's
    /// generated Info.plist declares nothing for an app); an XcodeGen spec with `type: application`.
    @_spi(Fuzzing) public static func isAppEvidence(_ file: String) -> Bool {
        if file.hasSuffix(".plist") { return true }
        guard let text = FileContents.read(atPath: file).map({ String(decoding: $0, as: UTF8.self) }) else {
            return false
        }
        if file.hasSuffix(".yml") || file.hasSuffix(".yaml") {
            return text.split(separator: "\n").contains {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "") == "type:application"
            }
        }
        if text.contains("com.apple.product-type.application") || text.contains("com.apple.product-type.app-extension")
        {
            return true
        }
        return text.contains("INFOPLIST_KEY_") && !text.contains("com.apple.product-type.")
    }

    /// What in `file` marks the app as an iOS app, as `file: what`; nil when nothing does.
    @_spi(Fuzzing) public static func iOSEvidence(_ file: String) -> String? {
        guard let text = FileContents.read(atPath: file).map({ String(decoding: $0, as: UTF8.self) }) else {
            return nil
        }
        // A multiplatform target lists iphoneos among its platforms.
        if file.hasSuffix(".pbxproj") || file.hasSuffix(".xcconfig"),
            let platforms = text.split(separator: "\n").first(where: {
                $0.contains("SUPPORTED_PLATFORMS") && $0.contains("iphoneos")
            })
        {
            return "\(file): \(platforms.trimmingCharacters(in: .whitespaces))"
        }
        let marks =
            file.hasSuffix(".plist")
            ? ["LSRequiresIPhoneOS", "UIApplicationSceneManifest", "UILaunchScreen", "UIRequiredDeviceCapabilities"]
            : file.hasSuffix(".yml") || file.hasSuffix(".yaml")
                ? ["platform: iOS"] : ["SDKROOT = iphoneos", "INFOPLIST_KEY_UILaunchScreen"]
        return marks.first { text.contains($0) }.map { "\(file): \($0)" }
    }

    @_spi(Fuzzing) public struct Unreadable: Error { public var message: String }

    /// The usage-description keys of an Info.plist that have text values; other keys and values
    /// of other types are passed over.
    struct UsageDescriptions: Decodable {
        var keys: [String: String] = [:]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for name in LintInputs.usageKeys {
                if let value = try? container.decodeIfPresent(String.self, forKey: Key(stringValue: name)) {
                    keys[name] = value
                }
            }
        }
    }

    /// Usage-description keys with a non-empty value, from a property list (XML or binary) or from
    /// `INFOPLIST_KEY_…` build settings in a project or xcconfig file.
    @_spi(Fuzzing) public static func usageKeys(in file: String) -> Result<Set<String>, Unreadable> {
        guard let data = FileContents.read(atPath: file) else {
            return .failure(Unreadable(message: "cannot read the file"))
        }
        if file.hasSuffix(".plist") {
            // PropertyListDecoder (XML or binary), not PropertyListSerialization, whose Linux
            // parser leaks an error object on every malformed file.
            do {
                let found = try PropertyListDecoder().decode(UsageDescriptions.self, from: data).keys
                return .success(Set(found.filter { $0.value.contains { !$0.isWhitespace } }.keys))
            } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
                return .failure(Unreadable(message: "the property list is not a dictionary"))
            } catch {
                return .failure(Unreadable(message: "not a property list"))
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        if file.hasSuffix(".yml") || file.hasSuffix(".yaml") {
            // XcodeGen: `info: properties:` keys, or `INFOPLIST_KEY_` build settings, with a value.
            return .success(
                Set(
                    usageKeys.filter { key in
                        text.split(separator: "\n").contains { line in
                            let content = line.drop { $0 == " " || $0 == "\t" }
                            for name in [key, "INFOPLIST_KEY_\(key)"] where content.hasPrefix(name + ":") {
                                return content.dropFirst(name.count + 1).contains { !$0.isWhitespace }
                            }
                            return false
                        }
                    }))
        }
        return .success(Set(usageKeys.filter { text.contains("INFOPLIST_KEY_\($0)") }))
    }
}
