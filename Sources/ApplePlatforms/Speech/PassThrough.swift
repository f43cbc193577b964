// On Apple platforms the product "Speech" adds nothing: `import Speech` reaches Apple's framework.
