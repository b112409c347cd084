"""QR codes read back from a browser's screenshot, with zxing-cpp: what a phone's camera
would read off the tablet's screen."""

from __future__ import annotations

import io

import zxingcpp
from PIL import Image
from playwright.sync_api import Locator, Page


def decode_png(png: bytes) -> list[str]:
    """The text of every QR code in a PNG image, top to bottom."""
    image = Image.open(io.BytesIO(png)).convert("L")
    codes = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    return [c.text for c in sorted(codes, key=lambda c: c.position.top_left.y)]


def qr_texts(target: Page | Locator, full_page: bool = True) -> list[str]:
    """Every QR code on a page (the whole of it) or in one element, as shown on screen."""
    if isinstance(target, Locator):
        return decode_png(target.screenshot())
    return decode_png(target.screenshot(full_page=full_page))
