// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "LiveFeed",
    platforms: [.macOS(.v26), .iOS(.v26)],
    products: [.library(name: "LiveFeed", targets: ["LiveFeed"])],
    targets: [.target(name: "LiveFeed")]
)
