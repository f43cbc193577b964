// On Apple platforms the product "CoreMedia" adds nothing: `import CoreMedia` reaches Apple's framework.
