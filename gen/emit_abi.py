# placeholder
def emit(spec):
    return {}
