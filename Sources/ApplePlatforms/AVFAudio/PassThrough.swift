// On Apple platforms the product "AVFAudio" adds nothing: `import AVFAudio` reaches Apple's framework.
