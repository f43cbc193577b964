import MigrationLint
import Testing

/// The deployment targets read from build settings, XcodeGen specs and package manifests.
@Suite("Deployment targets")
struct DeploymentTargetsTests {
    typealias Version = DeploymentTargets.Version

    @Test func buildSettingsKeepTheLowestOfEachPlatform() throws {
        let text = """
            \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 26.0;
            \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 17.4;
            \t\t\t\tMACOSX_DEPLOYMENT_TARGET = "27.0";
            \t\t\t\tGENERATE_INFOPLIST_FILE = YES;
            """
        let targets = try #require(DeploymentTargets.buildSettings(text, file: "A.xcodeproj/project.pbxproj"))
        #expect(targets.versions == ["iOS": Version("17.4")!, "macOS": Version("27")!])
        #expect(targets.platforms(below: Version("27")!) == ["iOS"])
        #expect(DeploymentTargets.buildSettings("PRODUCT_NAME = A;", file: "x") == nil)
    }

    @Test func xcodeGenSpecs() throws {
        let spec = """
            name: Notes
            options:
              deploymentTarget:
                iOS: "26.0"
                macOS: 26.2
            targets:
              Notes:
                type: application
            """
        let targets = try #require(DeploymentTargets.xcodeGenSpec(spec, file: "project.yml"))
        #expect(targets.versions == ["iOS": Version("26.0")!, "macOS": Version("26.2")!])
    }

    @Test func packageManifests() {
        let manifest = #"platforms: [.iOS(.v26), .macOS("27.0"), .visionOS(.v26)],"#
        #expect(
            DeploymentTargets.packageManifest(manifest, file: "Package.swift").versions == [
                "iOS": Version("26")!, "macOS": Version("27.0")!, "visionOS": Version("26")!,
            ])
        #expect(
            DeploymentTargets.packageManifest("platforms: [.macOS(.v10_15)]", file: "Package.swift").versions
                == ["macOS": Version("10.15")!])
        // No platforms: the package manager's oldest, below 27 everywhere.
        let none = DeploymentTargets.packageManifest("let package = Package(name: \"A\")", file: "Package.swift")
        #expect(none.platforms(below: Version("27")!) == ["iOS", "macOS"])
    }

    @Test func versionsCompareByNumber() {
        #expect(Version("26.10")! > Version("26.9")!)
        #expect(Version("27")! == Version("27.0")!)
        #expect(Version("27.beta") == nil)
    }
}
