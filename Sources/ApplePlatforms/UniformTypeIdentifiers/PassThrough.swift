// On Apple platforms the product "UniformTypeIdentifiers" adds nothing: the import reaches Apple's framework.
