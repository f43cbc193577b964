// On Apple platforms the product "AVFoundation" adds nothing: `import AVFoundation` reaches Apple's framework.
