#!/usr/bin/env python3
"""Page actions on matter-emu's dashboard in headless Chromium, for Tests/MatterEmuCLITests/
BrowserDashboardTests.swift (run by scripts/test-browser.sh). No test logic here: it reads one JSON
command per line on stdin, does it on the page and prints one JSON answer per line; the Swift suite
decides what passes.

Commands:
  {"op":"open","url":U}                          load U; wait until the event stream is live and rows shown
  {"op":"rows"}                                  every row as shown: device, label, type, state, fabrics,
                                                 attributes {name: text}, manualCode, qrPayload, qrShown
  {"op":"click","device":N,"control":CLASS}      click the row's control (turn on/off: toggle, open-window...)
  {"op":"input","device":N,"control":CLASS,"value":V}
                                                 set the row's input or select of that class to V, as a
                                                 person would (the page sees a change event)
  {"op":"wait","device":N,"attribute":A,"text":T,"seconds":S}
                                                 wait (at most S s, a hang guard) until the row shows A = T;
                                                 answers the text it last saw
  {"op":"waitManualCode","device":N,"seconds":S} wait until the row shows a manual code; answers its codes
  {"op":"waitLog","device":N,"text":T,"seconds":S}
                                                 wait until an entry of the row's event log contains T;
                                                 answers the entries it last saw
  {"op":"search","text":T}                       type T into the search box
  {"op":"screenshot","path":P}                   save a PNG
  {"op":"quit"}
Answers: {"ok":true,...} or {"ok":false,"error":...}.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def start():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,900", "--disable-extensions", "--no-first-run"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def row(driver, device):
    return driver.find_element(By.ID, "device-%d" % device)


def read_row(element):
    def text(selector):
        found = element.find_elements(By.CSS_SELECTOR, selector)
        return found[0].text if found else None
    cells = element.find_elements(By.TAG_NAME, "td")
    attributes = {}
    for span in element.find_elements(By.CSS_SELECTOR, "[data-attribute]"):
        attributes[span.get_attribute("data-attribute")] = span.find_element(By.TAG_NAME, "b").text
    images = element.find_elements(By.CSS_SELECTOR, "img.qr")
    log = [entry.get_property("textContent") for entry in element.find_elements(By.CSS_SELECTOR, ".log-entry")]
    return {
        "device": int(element.get_attribute("data-device")),
        "label": text(".label"), "type": text(".type"), "state": text(".state"),
        "fabrics": text(".fabrics"), "attributes": attributes,
        "manualCode": text(".manual-code"), "qrPayload": text(".qr-payload"),
        # An image that loaded has a natural width; a broken one has 0.
        "qrShown": bool(images) and images[0].get_property("naturalWidth") > 0,
        "cells": len(cells), "log": log,
    }


def until(seconds, probe):
    """Calls probe until it answers (done, value) with done true, or seconds pass: (done, last value)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            done, value = probe()
        except (StaleElementReferenceException, WebDriverException):
            done, value = False, None  # the row was redrawn between two reads
        if done or time.monotonic() > deadline:
            return done, value
        time.sleep(0.05)


def handle(driver, command):
    op = command.get("op")
    if op == "open":
        driver.get(command["url"])
        live, _ = until(command.get("seconds", 20), lambda: (
            driver.find_element(By.ID, "connection").text == "live"
            and len(driver.find_elements(By.CSS_SELECTOR, "#devices tr")) > 0, None))
        return {"ok": live, "error": None if live else "the page never went live"}
    if op == "rows":
        return {"ok": True, "rows": [read_row(e) for e in driver.find_elements(By.CSS_SELECTOR, "#devices tr")]}
    if op == "click":
        # The page redraws a row on every change it hears of: a button found just before a redraw is gone
        # when clicked (stale). Find it again and click that one, as a person's next try would.
        def press():
            row(driver, command["device"]).find_element(By.CSS_SELECTOR, "button." + command["control"]).click()
            return True, None
        clicked, _ = until(command.get("seconds", 10), press)
        return {"ok": clicked, "error": None if clicked else "the button stayed stale or absent"}
    if op == "input":
        field = row(driver, command["device"]).find_element(By.CSS_SELECTOR, "." + command["control"])
        driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'));",
            field, str(command["value"]))
        return {"ok": True}
    if op == "waitLog":
        def probe():
            entries = read_row(row(driver, command["device"]))["log"]
            return any(command["text"] in entry for entry in entries), entries
        done, entries = until(command.get("seconds", 10), probe)
        return {"ok": done, "log": entries}
    if op == "wait":
        def probe():
            shown = read_row(row(driver, command["device"]))["attributes"].get(command["attribute"])
            return shown == command["text"], shown
        done, shown = until(command.get("seconds", 10), probe)
        return {"ok": done, "text": shown}
    if op == "waitManualCode":
        def probe():
            shown = read_row(row(driver, command["device"]))
            return bool(shown["manualCode"]) and shown["qrShown"], shown
        done, shown = until(command.get("seconds", 10), probe)
        return {"ok": done, "row": shown}
    if op == "search":
        box = driver.find_element(By.ID, "search")
        box.clear()
        box.send_keys(command["text"])
        return {"ok": True}
    if op == "screenshot":
        return {"ok": driver.save_screenshot(command["path"])}
    return {"ok": False, "error": "unknown op %r" % op}


def main():
    driver = start()
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            if command.get("op") == "quit":
                print(json.dumps({"ok": True}), flush=True)
                break
            try:
                answer = handle(driver, command)
            except Exception as error:  # reported to the suite, which fails with it
                answer = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
            answer["op"] = command.get("op")
            print(json.dumps(answer), flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
