print("sessionctl: not built yet")
