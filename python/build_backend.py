"""A minimal PEP 517 build backend (standard library only) so that
`pip install ./python` needs no network: it packs roofline/*.py and a copy of
the C library (../build/libroofline.so, built with `make` if missing) into a
wheel. The wheel is platform-specific because of the shared library.
`pip install -e ./python` (PEP 660) installs a path file instead: the package
and the library are used where they are, in the source and build trees.
"""
import base64
import hashlib
import os
import subprocess
import sysconfig
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NAME, VERSION = "roofline", "0.1.0"


def _library():
    lib = os.path.join(ROOT, "build", "libroofline.so")
    if not os.path.exists(lib):
        subprocess.check_call(["make", "-C", ROOT, "build/libroofline.so"])
    return lib


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{plat}"


def _record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arc},sha256={digest},{len(data)}"


def _metadata():
    dist = f"{NAME}-{VERSION}.dist-info"
    return {
        f"{dist}/METADATA": (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"
                             "Summary: The roofline model (ctypes binding of libroofline)\n"
                             "License: MIT\n").encode(),
        f"{dist}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: roofline build_backend\n"
                          f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode(),
    }


def _write_wheel(wheel_directory, files):
    dist = f"{NAME}-{VERSION}.dist-info"
    files.update(_metadata())
    record = [_record_line(a, d) for a, d in files.items()] + [f"{dist}/RECORD,,"]
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    name = f"{NAME}-{VERSION}-{_tag()}.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in files.items():
            info = zipfile.ZipInfo(arc, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if arc.endswith(".so") else 0o644) << 16
            z.writestr(info, data)
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = {}
    pkg = os.path.join(HERE, NAME)
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py"):
            with open(os.path.join(pkg, fn), "rb") as f:
                files[f"{NAME}/{fn}"] = f.read()
    with open(_library(), "rb") as f:
        files[f"{NAME}/_lib/libroofline.so"] = f.read()
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660 (`pip install -e ./python`): a wheel holding only a .pth file that
    puts this folder on sys.path, so the package is imported from the source
    tree and finds the library of the build tree (../build/libroofline.so,
    built here if missing): an edit to roofline/*.py or a `make` shows at once."""
    _library()
    return _write_wheel(wheel_directory, {f"__editable__.{NAME}.pth": (HERE + "\n").encode()})


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []
