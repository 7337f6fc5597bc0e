"""Host time: one scenario zone, all instants kept as integer µs since the epoch.

Every source formats the same instant its own way; these helpers are the only
place that knows how.
"""
import datetime as _dt
import hashlib
import zoneinfo

_UTC = _dt.timezone.utc


class Clock:
    def __init__(self, tz_name, default_date):
        self.tz_name = tz_name
        self.tz = zoneinfo.ZoneInfo(tz_name)
        self.default_date = default_date  # "YYYY-MM-DD"

    # -- parsing -----------------------------------------------------------
    def parse(self, text):
        """'YYYY-MM-DD HH:MM:SS[.ffffff]' or 'HH:MM:SS[.ffffff]' (host local)
        or RFC3339 with an offset -> µs since the epoch."""
        text = text.strip()
        if "T" in text:
            d = _dt.datetime.fromisoformat(text)
            return to_us(d)
        if len(text) <= 15:
            text = self.default_date + " " + text
        d = _dt.datetime.fromisoformat(text).replace(tzinfo=self.tz)
        return to_us(d)

    def local(self, us):
        return _dt.datetime.fromtimestamp(us // 1_000_000, self.tz).replace(
            microsecond=us % 1_000_000)

    # -- formatting --------------------------------------------------------
    def offset(self, us):
        """'+08:00'"""
        off = self.local(us).utcoffset()
        mins = int(off.total_seconds()) // 60
        sign = "+" if mins >= 0 else "-"
        mins = abs(mins)
        return "%s%02d:%02d" % (sign, mins // 60, mins % 60)

    def zone_abbrev(self, us):
        return self.local(us).tzname()

    def rfc3339nano(self, ns, trim=True):
        """Go time.RFC3339Nano in the host zone (trailing zeros trimmed) or
        RFC3339NanoFixed (always 9 digits) when trim is False."""
        us = ns // 1000
        d = self.local(us)
        frac = "%09d" % (ns % 1_000_000_000)
        if trim:
            frac = frac.rstrip("0")
        base = d.strftime("%Y-%m-%dT%H:%M:%S")
        off = self.offset(us)
        if off == "+00:00":
            off = "Z"
        return base + ("." + frac if frac else "") + off

    def klog(self, us, severity="I", pid=1, src="main.go:1"):
        d = self.local(us)
        return "%s%s %s %7d %s] " % (severity, d.strftime("%m%d"),
                                      d.strftime("%H:%M:%S.%f"), pid, src)

    def systemd_ts(self, us):
        """'Wed 2026-11-18 11:18:16 CST' (systemctl show)."""
        d = self.local(us)
        return d.strftime("%a %Y-%m-%d %H:%M:%S ") + d.tzname()

    def ctime(self, us):
        """'Wed Nov 18 21:30:02 2026' (nvidia-smi timestamp)."""
        d = self.local(us)
        return d.strftime("%a %b ") + ("%2d" % d.day) + d.strftime(" %H:%M:%S %Y")

    def logrus(self, ns):
        return self.rfc3339nano(ns)


def utc_golog(us):
    """Go 'log' default prefix as printed inside a UTC container."""
    d = _dt.datetime.fromtimestamp(us / 1e6, _UTC)
    return d.strftime("%Y/%m/%d %H:%M:%S ")


def utc_klog(us, severity="I", pid=1, src="main.go:1"):
    d = _dt.datetime.fromtimestamp(us // 1_000_000, _UTC).replace(
        microsecond=us % 1_000_000)
    return "%s%s %s %7d %s] " % (severity, d.strftime("%m%d"),
                                  d.strftime("%H:%M:%S.%f"), pid, src)


def utc_rfc3339(us):
    d = _dt.datetime.fromtimestamp(us // 1_000_000, _UTC)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def to_us(d):
    return int(d.timestamp()) * 1_000_000 + d.microsecond


def hexid(*parts, n=64):
    h = hashlib.sha256("\0".join(str(p) for p in parts).encode()).hexdigest()
    while len(h) < n:
        h += hashlib.sha256(h.encode()).hexdigest()
    return h[:n]


def uuid_from(*parts):
    h = hexid(*parts, n=32)
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:32])


def jitter(*parts, lo=0, hi=1000):
    """Deterministic pseudo-random integer in [lo, hi)."""
    return lo + int(hexid(*parts, n=12), 16) % (hi - lo)
