"""The players' channels beside email, through Apprise (docs/players.md, "Notifications"; docs/dependencies.md):
the service's Channels port (app/service/ports.py). A player names their channel by an Apprise URL
(`discord://ID/TOKEN`, `tgram://BOT/CHAT`, `ntfy://topic`, `https://hooks.slack.com/services/...`); Apprise parses
it, and this module decides whether the server may call it:

- only the services of SERVICES: chat and push services players use, and a JSON webhook for one's own receiver.
  Everything else Apprise could reach is refused: email through any SMTP server (`mailto://`, which would make the
  server a relay), the server's own desktop, syslog or scripts, another Apprise server, and every scheme Apprise
  does not know (`file://` among them);
- a service whose address is fixed (Discord, Slack, Telegram, Pushover, ntfy.sh) posts to that service's own API:
  the URL's "host" is an id there. A self-hosted one (ntfy on one's own server, Matrix, Mattermost, Rocket.Chat,
  Gotify, a JSON webhook) is called at the URL's host, which must resolve only to public addresses: no loopback,
  private, link-local (the cloud metadata address), shared, reserved or multicast address, so a player cannot make
  the server call inside its own network. The operator may allow named hosts all the same (`private_hosts`:
  HEXLEDGER_NOTIFY_PRIVATE_HOSTS, e.g. a LAN's ntfy, or 127.0.0.1 in tests). The host is checked again at every
  send (it may resolve elsewhere since).

What remains (docs/players.md): a public host that answers with a redirect into the network is followed by the
HTTP client Apprise uses, and a name can resolve differently between the check and the call; an operator who
must rule those out filters the server's outgoing traffic.
"""
from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import Callable, Iterable

from app import text
from app.service.ports import ChannelRefused, Notification, PermanentFailure, TemporaryFailure

# Apprise's service names (a plugin's `service_name`) this server calls, and whether it calls the URL's host
# (self-hosted) or the service's own fixed address
FIXED = "fixed"
SELF_HOSTED = "self-hosted"
SERVICES = {"Discord": FIXED, "Slack": FIXED, "Telegram": FIXED, "Pushover": FIXED, "ntfy": SELF_HOSTED,
            "Matrix": SELF_HOSTED, "Mattermost": SELF_HOSTED, "Rocket.Chat": SELF_HOSTED, "Gotify": SELF_HOSTED,
            "JSON": SELF_HOSTED}
CLOUD_MODES = {"cloud"}  # ntfy's mode for ntfy.sh (`ntfy://topic`): the fixed public server
MAX_URL = 1000

Resolver = Callable[[str], Iterable[str]]


def resolve(host: str) -> list[str]:
    """Every address `host` names (an address names itself)."""
    try:
        return [info[4][0] for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)]
    except (OSError, UnicodeError) as exc:
        raise LookupError(f"the host {host!r} cannot be resolved: {exc.__class__.__name__}") from None


class AppriseChannels:
    """The Channels port over Apprise. `private_hosts`: hosts (names or addresses, as the URL writes them) the
    operator allows although they are inside the network; `resolver`: how a host becomes addresses."""

    def __init__(self, private_hosts: Iterable[str] = (), resolver: Resolver = resolve):
        self.private_hosts = frozenset(h.strip().lower().strip("[]") for h in private_hosts if h.strip())
        self.resolver = resolver

    def checked(self, url: str) -> str:
        try:
            return self._plugin(url).url(privacy=True).partition("?")[0]
        except LookupError as exc:
            raise ChannelRefused(str(exc)) from None

    def send(self, notification: Notification) -> None:
        import apprise

        try:
            plugin = self._plugin(notification.url)
        except ChannelRefused as exc:
            raise PermanentFailure(f"channel refused: {exc}") from None
        except LookupError as exc:  # a name that does not resolve now may resolve later
            raise TemporaryFailure(str(exc)) from None
        sender = apprise.Apprise(asset=_asset())
        sender.add(plugin)
        if not sender.notify(title=notification.title, body=notification.body, body_format=apprise.NotifyFormat.TEXT):
            # the service and, self-hosted, its host: a webhook's path or id may be its secret
            where = f" at {plugin.host}" if SERVICES[plugin.service_name] == SELF_HOSTED and plugin.host else ""
            raise TemporaryFailure(f"{plugin.service_name}{where} did not take the notification")

    def _plugin(self, url: str):
        """Apprise's plugin for `url`, if the server may call it (module docstring); else ChannelRefused, or
        LookupError for a host that does not resolve (ChannelRefused, when checked for a player)."""
        import apprise

        url = url.strip()
        if not url or len(url) > MAX_URL or text.problem(url) or any(c.isspace() for c in url):
            raise ChannelRefused(f"a notification URL is one line of at most {MAX_URL} characters, without spaces")
        plugin = apprise.Apprise.instantiate(url, asset=_asset(), suppress_exceptions=True)
        if plugin is None:
            scheme = url.partition("://")[0] + "://" if "://" in url else "no scheme"
            raise ChannelRefused(f"not a notification URL this server reads ({scheme}); use one of "
                                 f"{', '.join(SERVICES)}: docs/players.md")
        kind = SERVICES.get(plugin.service_name)
        if kind is None:
            raise ChannelRefused(f"{plugin.service_name} is not a channel this server calls; it calls "
                                 f"{', '.join(SERVICES)}")
        if kind == SELF_HOSTED and getattr(plugin, "mode", None) not in CLOUD_MODES:
            self._public(plugin.host or "")
        return plugin

    def _public(self, host: str) -> None:
        """Refuse a host inside the network (module docstring), unless the operator allows it."""
        name = host.strip().lower().strip("[]")
        if not name:
            raise ChannelRefused("the URL names no host")
        if name in self.private_hosts:
            return
        try:
            addresses = [str(ipaddress.ip_address(name))]  # an address names itself
        except ValueError:
            addresses = list(self.resolver(name))
        if not addresses:
            raise LookupError(f"the host {host!r} cannot be resolved")
        for address in addresses:
            ip = ipaddress.ip_address(address.partition("%")[0])
            if ip.version == 6 and ip.ipv4_mapped is not None:  # ::ffff:127.0.0.1 is 127.0.0.1
                ip = ip.ipv4_mapped
            if not ip.is_global or ip.is_multicast:
                raise ChannelRefused(f"the host {host!r} is inside the server's network ({ip}); the server calls "
                                     "only public hosts")


def _quiet() -> None:
    """Apprise's own log quotes the URLs it cannot parse, which are players' secrets: it is kept for what is
    critical only. The outbox logs each failed notification itself, without its URL."""
    logging.getLogger("apprise").setLevel(logging.CRITICAL)


def _asset():
    """Apprise's settings for the server: no plugin loaded from any folder, nothing stored on disk."""
    import apprise

    _quiet()
    return apprise.AppriseAsset(plugin_paths=[], storage_mode=apprise.PersistentStoreMode.MEMORY)
