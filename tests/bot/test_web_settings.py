"""WEB_PORT, WEB_HOST, WEB_BASE_URL, WEB_TRUSTED_PROXIES and LOG_FORMAT: read, checked, and
refused with a message naming the setting; and what kind of Discord request each route is for
the metrics."""

from __future__ import annotations

import pytest

from bot.metrics import request_kind, status_class
from bot.settings import Settings, SettingsError


def test_the_web_settings_are_read_and_off_by_default() -> None:
    default = Settings.from_env({}, dotenv_path=None)
    assert default.web_port is None and default.log_format == "text"
    s = Settings.from_env({"WEB_PORT": "9108", "WEB_HOST": "0.0.0.0", "LOG_FORMAT": "JSON",
                           "WEB_BASE_URL": "https://belote.example.org/"}, dotenv_path=None)
    assert (s.web_port, s.web_host, s.log_format) == (9108, "0.0.0.0", "json")
    assert s.web_base_url == "https://belote.example.org/"
    assert default.web_trusted_proxies == ()
    s = Settings.from_env({"WEB_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8 ::1"},
                          dotenv_path=None)
    assert s.web_trusted_proxies == ("127.0.0.1/32", "10.0.0.0/8", "::1/128")


@pytest.mark.parametrize(("name", "value"), [
    ("WEB_PORT", "http"), ("WEB_PORT", "70000"), ("LOG_FORMAT", "xml"),
    ("WEB_BASE_URL", "belote.example.org"), ("WEB_TRUSTED_PROXIES", "10.0.0.0/8, proxy"),
    ("WEB_TRUSTED_PROXIES", "10.0.0.300")])
def test_a_wrong_value_names_its_setting(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value}, dotenv_path=None)


def test_each_request_has_its_kind() -> None:
    def dm(channel: int) -> bool:
        return channel == 7

    assert request_kind("POST", "/interactions/1/tok/callback", dm) == "interaction_answer"
    assert request_kind("PATCH", "/webhooks/1/tok/messages/@original", dm) == "token_edit"
    assert request_kind("POST", "/webhooks/1/tok", dm) == "followup"
    assert request_kind("PATCH", "/channels/5/messages/9", dm) == "message_edit"
    assert request_kind("POST", "/channels/5/messages", dm) == "post"
    assert request_kind("POST", "/channels/7/messages", dm) == "dm"
    assert request_kind("POST", "/users/@me/channels", dm) == "dm"
    assert request_kind("GET", "/channels/5/messages/9", dm) == "other"
    assert [status_class(s) for s in (200, 204, 404, 429, 502)] == \
        ["2xx", "2xx", "4xx", "429", "5xx"]
