/// An engine made over another one (a streaming policy, a memo): code that needs the engine
/// underneath, to shut its worker down or to wrap it, reaches it through `base`.
public protocol EngineAdapter: RecognitionEngine {
    var base: any RecognitionEngine { get }
    /// The same adapter over another engine.
    func replacingBase(_ base: any RecognitionEngine) -> Self
}

extension RecognitionEngine {
    /// The engine under every adapter.
    public var innermost: any RecognitionEngine { (self as? any EngineAdapter)?.base.innermost ?? self }
}
