"""The receipt printer: ESC/POS over TCP, USB, serial or a file, through python-escpos.

``settings`` (the profile's ``[printer]``), ``device`` (a printer URL to a python-escpos
printer), ``layout`` (receipt and report text that fits the paper), ``queue`` (jobs that never
block the counter). The core never imports Qt; the training window shows ``VirtualPrinter``'s
output.
"""
