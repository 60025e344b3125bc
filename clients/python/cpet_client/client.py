"""
The CPET analysis service over HTTP: every operation of the public contract is one method, named in
OPERATIONS (a test fails when the contract gains an operation this client lacks). Errors come back as
CpetError carrying the spec's error, message and context. With pandas importable, the export and the
findings can come back as DataFrames.
"""
import base64
import io
import os

import requests

# operationId in openapi/cpet-api.yaml -> method of CpetClient.
OPERATIONS = {
    "getCapabilities": "capabilities",
    "uploadCpetContent": "upload",
    "createUploadTickets": "upload_tickets",
    "getCpet": "get",
    "deleteCpet": "delete",
    "getCpetSeries": "series",
    "exportCpet": "export",
    "analyzeCpet": "analyze",
    "listMetrics": "metrics",
    "computeMetrics": "compute",
    "getSample": "sample",
    "listFormats": "formats",
    "getOpenApi": "openapi",
    "getHealth": "health",
    "getReady": "ready",
    "getLlmsTxt": "llms_txt",
    "getLlmsFullTxt": "llms_full_txt",
}

BINARY_EXTENSIONS = (".xlsx", ".xls", ".zip")


class CpetError(Exception):
    """A response other than 2xx: `status`, and the spec's `error`, `message` and `context`."""

    def __init__(self, status, error, message, context):
        super().__init__(f"{status} {error}: {message}")
        self.status = status
        self.error = error
        self.message = message
        self.context = context or {}


def _pandas():
    try:
        import pandas  # noqa: F401 -- optional dependency

        return pandas
    except ImportError:
        return None


class CpetClient:
    def __init__(self, base_url, api_key=None, timeout=120):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("CPET_API_KEY")
        self.timeout = timeout
        self.session = requests.Session()

    def _request(self, method, path, *, json=None, params=None, raw=False):
        headers = {"X-API-Key": self.api_key} if self.api_key else {}
        res = self.session.request(method, self.base_url + path, json=json, params=params, headers=headers, timeout=self.timeout)
        if res.status_code >= 400:
            try:
                body = res.json()
            except ValueError:
                body = {"error": "HTTP_ERROR", "message": res.text[:500], "context": {}}
            raise CpetError(res.status_code, body.get("error"), body.get("message"), body.get("context"))
        return res.text if raw else res.json()

    # Discovery
    def capabilities(self):
        return self._request("GET", "/v1/capabilities")

    def formats(self):
        return self._request("GET", "/v1/formats")

    def metrics(self):
        return self._request("GET", "/v1/metrics")

    def sample(self, oscillating=False):
        return self._request("GET", "/v1/sample", params={"oscillating": str(bool(oscillating)).lower()})

    def openapi(self):
        return self._request("GET", "/v1/openapi.json")

    def health(self):
        return self._request("GET", "/health")

    def ready(self):
        return self._request("GET", "/ready")

    def llms_txt(self):
        return self._request("GET", "/llms.txt", raw=True)

    def llms_full_txt(self):
        return self._request("GET", "/llms-full.txt", raw=True)

    # Recordings
    def upload(self, path=None, *, content=None, filename=None, retain_hours=None):
        """Uploads a file unchanged (by path, or its text as `content`); returns the upload summary with cpet_id."""
        body = {"filename": filename or (os.path.basename(path) if path else "recording.csv")}
        if path is not None:
            with open(path, "rb") as f:
                data = f.read()
            if path.lower().endswith(BINARY_EXTENSIONS):
                body["content_base64"] = base64.b64encode(data).decode("ascii")
            else:
                try:
                    body["content"] = data.decode("utf-8")
                except UnicodeDecodeError:
                    body["content_base64"] = base64.b64encode(data).decode("ascii")
        else:
            body["content"] = content
        if retain_hours is not None:
            body["retain_hours"] = retain_hours
        return self._request("POST", "/v1/cpet/content", json=body)

    def upload_tickets(self, count=1):
        return self._request("POST", "/v1/uploads", json={"count": count})

    def get(self, cpet_id):
        return self._request("GET", f"/v1/cpet/{cpet_id}")

    def delete(self, cpet_id):
        return self._request("DELETE", f"/v1/cpet/{cpet_id}")

    def series(self, cpet_id, channels="VE", max_points=500, grid="raw"):
        return self._request("GET", f"/v1/cpet/{cpet_id}/series", params={"channels": channels, "max_points": max_points, "grid": grid})

    def export(self, cpet_id, *, resample=None, averaging=None, as_frame=None, **averaging_fields):
        """
        The full-resolution recording. Returns a pandas DataFrame when pandas is importable (or
        as_frame=True), else the CSV text. averaging: time_bins, rolling_time, rolling_breaths or
        low_pass, with window_s, breaths, alignment, statistic, cutoff_hz, order as keywords.
        """
        params = {"format": "csv"}
        if resample:
            params["resample"] = resample
        if averaging:
            params["averaging"] = averaging
        params.update({k: v for k, v in averaging_fields.items() if v is not None})
        text = self._request("GET", f"/v1/cpet/{cpet_id}/export", params=params, raw=True)
        pd = _pandas()
        if as_frame is False or (as_frame is None and pd is None):
            return text
        if pd is None:
            raise ImportError("as_frame=True needs pandas")
        return pd.read_csv(io.StringIO(text), comment="#")

    # Analysis
    def analyze(self, cpet_id, analyses=None, model=None, model_version=None, medications=None):
        body = {k: v for k, v in {"analyses": analyses, "model": model, "model_version": model_version, "medications": medications}.items() if v is not None}
        return self._request("POST", f"/v1/cpet/{cpet_id}/analyze", json=body)

    def compute(self, cpet_id, metrics, averaging=None, body_mass_kg=None):
        body = {"metrics": list(metrics)}
        if averaging is not None:
            body["averaging"] = averaging
        if body_mass_kg is not None:
            body["body_mass_kg"] = body_mass_kg
        return self._request("POST", f"/v1/cpet/{cpet_id}/compute", json=body)

    @staticmethod
    def findings_frame(analysis_response):
        """One row per analysis envelope: analysis, status, error, and each top-level finding that is a number."""
        rows = []
        for env in analysis_response.get("results", []):
            row = {"analysis": env.get("analysis"), "status": env.get("status"), "error": env.get("error")}
            for k, v in (env.get("findings") or {}).items():
                if isinstance(v, (int, float)) or v is None:
                    row[k] = v
            rows.append(row)
        pd = _pandas()
        return pd.DataFrame(rows) if pd is not None else rows
