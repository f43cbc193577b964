internal import SwiftSyntax

/// Code that runs only where an availability condition holds, or only where it fails, as Swift
/// reads it: the branches of `if #available` and `if #unavailable`, what follows a `guard` on one,
/// what follows an `if #available … { …; return }`, and declarations marked `@available(iOS 27, *)`.
@frozen public struct AvailabilityRegion: Sendable, Equatable {
    /// The tokens of the region.
    public var range: Range<Int>
    /// The platforms and versions named (`["iOS": "27", "macOS": "27.0"]`); `*` is not one.
    public var platforms: [String: String]
    /// True where the code runs only when those versions are present; false where it runs only
    /// when they are not (a fallback).
    public var holds: Bool
    /// The token of the condition or attribute that makes the region.
    public var origin: Int

    public init(range: Range<Int>, platforms: [String: String], holds: Bool, origin: Int) {
        self.range = range
        self.platforms = platforms
        self.holds = holds
        self.origin = origin
    }
}

/// Reads availability regions from the tree, in token indices.
struct AvailabilityReader {
    let index: (Int) -> Int
    var regions: [AvailabilityRegion] = []

    init(index: @escaping (Int) -> Int) { self.index = index }

    /// The tokens from the start of `first` to the end of `last`.
    private func range(from first: some SyntaxProtocol, to last: some SyntaxProtocol) -> Range<Int> {
        index(
            first.positionAfterSkippingLeadingTrivia.utf8Offset)..<index(
                last.endPositionBeforeTrailingTrivia.utf8Offset)
    }

    private func range(of node: some SyntaxProtocol) -> Range<Int> { range(from: node, to: node) }

    /// The region a `#available`, `#unavailable` or `@` token opens, if it opens one.
    mutating func read(_ node: TokenSyntax) {
        switch node.tokenKind {
        case .poundAvailable, .poundUnavailable:
            guard let condition = node.parent?.as(AvailabilityConditionSyntax.self) else { return }
            read(condition, unavailable: node.tokenKind == .poundUnavailable)
        case .atSign:
            guard let attribute = node.parent?.as(AttributeSyntax.self),
                attribute.attributeName.trimmedDescription == "available",
                case .availability(let arguments)? = attribute.arguments,
                let declaration = attribute.parent?.parent, declaration.is(DeclSyntax.self)
            else { return }
            let platforms = Self.platforms(arguments)
            guard !platforms.isEmpty else { return }
            regions.append(
                AvailabilityRegion(
                    range: range(of: declaration), platforms: platforms, holds: true,
                    origin: index(node.positionAfterSkippingLeadingTrivia.utf8Offset)))
        default: return
        }
    }

    /// An `if` or `guard` condition on availability.
    private mutating func read(_ condition: AvailabilityConditionSyntax, unavailable: Bool) {
        let platforms = Self.platforms(condition.availabilityArguments)
        let origin = index(condition.positionAfterSkippingLeadingTrivia.utf8Offset)
        guard let list = condition.parent?.parent?.as(ConditionElementListSyntax.self), let owner = list.parent else {
            return
        }
        let add = { (range: Range<Int>, holds: Bool, regions: inout [AvailabilityRegion]) in
            regions.append(AvailabilityRegion(range: range, platforms: platforms, holds: holds, origin: origin))
        }
        if let branch = owner.as(IfExprSyntax.self) {
            add(range(of: branch.body), !unavailable, &regions)
            if let other = branch.elseBody { add(range(of: other), unavailable, &regions) }
            // `if #available(…) { …; return }`: what follows runs only where the branch did not.
            if Self.alwaysLeaves(branch.body), let rest = Self.rest(after: branch) {
                add(range(from: rest.first, to: rest.last), unavailable, &regions)
            }
        } else if let check = owner.as(GuardStmtSyntax.self) {
            add(range(of: check.body), unavailable, &regions)
            if let rest = Self.rest(after: check) {
                add(range(from: rest.first, to: rest.last), !unavailable, &regions)
            }
        }
    }

    /// `iOS 27, macOS 27.0, *` or `iOS, introduced: 27`.
    static func platforms(_ arguments: AvailabilityArgumentListSyntax) -> [String: String] {
        var platforms: [String: String] = [:]
        var named: String?
        for argument in arguments {
            switch argument.argument {
            case .availabilityVersionRestriction(let restriction):
                if let version = restriction.version {
                    platforms[restriction.platform.text] = version.trimmedDescription
                } else {
                    named = restriction.platform.text
                }
            case .token(let token):
                if case .identifier = token.tokenKind { named = token.text }
            case .availabilityLabeledArgument(let labeled):
                if labeled.label.text == "introduced", let named, case .version(let version) = labeled.value {
                    platforms[named] = version.trimmedDescription
                }
            @unknown default: continue
            }
        }
        return platforms
    }

    /// Whether a block's last statement leaves it (`return`, `throw`, `break`, `continue`).
    static func alwaysLeaves(_ body: CodeBlockSyntax) -> Bool {
        guard let last = body.statements.last?.item else { return false }
        if let statement = last.as(StmtSyntax.self) {
            return statement.is(ReturnStmtSyntax.self) || statement.is(ThrowStmtSyntax.self)
                || statement.is(BreakStmtSyntax.self) || statement.is(ContinueStmtSyntax.self)
        }
        if let call = last.as(FunctionCallExprSyntax.self) {
            return ["fatalError", "preconditionFailure"].contains(call.calledExpression.trimmedDescription)
        }
        return false
    }

    /// The statements after the one holding `node`, in the same list.
    static func rest(after node: some SyntaxProtocol) -> (first: CodeBlockItemSyntax, last: CodeBlockItemSyntax)? {
        var current = Syntax(node)
        while let parent = current.parent, !parent.is(CodeBlockItemSyntax.self) { current = parent }
        guard let item = current.parent?.as(CodeBlockItemSyntax.self),
            let list = item.parent?.as(CodeBlockItemListSyntax.self),
            let position = list.firstIndex(where: { $0.id == item.id })
        else { return nil }
        let following = list[list.index(after: position)...]
        guard let first = following.first, let last = following.last else { return nil }
        return (first, last)
    }
}
