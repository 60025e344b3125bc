# The CPET analysis service over HTTP: every operation of the public contract is one function,
# named in cpet_operations (a test fails when the contract gains an operation this client lacks).
# Errors are conditions of class cpet_error carrying the spec's error, message and context.

cpet_operations <- c(
  getCapabilities = "cpet_capabilities", uploadCpetContent = "cpet_upload",
  createUploadTickets = "cpet_upload_tickets", getCpet = "cpet_get", deleteCpet = "cpet_delete",
  getCpetSeries = "cpet_series", exportCpet = "cpet_export", analyzeCpet = "cpet_analyze",
  listMetrics = "cpet_metrics", computeMetrics = "cpet_compute", getSample = "cpet_sample",
  listFormats = "cpet_formats", getOpenApi = "cpet_openapi", getHealth = "cpet_health",
  getReady = "cpet_ready", getLlmsTxt = "cpet_llms_txt", getLlmsFullTxt = "cpet_llms_full_txt"
)

cpet_client <- function(base_url = Sys.getenv("CPET_URL"), api_key = Sys.getenv("CPET_API_KEY")) {
  structure(list(base_url = sub("/+$", "", base_url), api_key = api_key), class = "cpet_client")
}

.cpet_request <- function(client, method, path, body = NULL, query = list(), raw = FALSE) {
  req <- httr2::request(paste0(client$base_url, path))
  req <- httr2::req_method(req, method)
  if (nzchar(client$api_key)) req <- httr2::req_headers(req, `X-API-Key` = client$api_key)
  query <- Filter(Negate(is.null), query)
  if (length(query)) req <- do.call(httr2::req_url_query, c(list(req), query))
  if (!is.null(body)) req <- httr2::req_body_json(req, body, auto_unbox = TRUE, null = "null")
  req <- httr2::req_error(req, is_error = function(resp) FALSE)
  resp <- httr2::req_perform(req)
  status <- httr2::resp_status(resp)
  text <- httr2::resp_body_string(resp)
  if (status >= 400) {
    parsed <- tryCatch(jsonlite::fromJSON(text, simplifyVector = FALSE), error = function(e) list(error = "HTTP_ERROR", message = text, context = list()))
    stop(structure(class = c("cpet_error", "error", "condition"), list(
      message = sprintf("%d %s: %s", status, parsed$error, parsed$message), call = NULL,
      status = status, error = parsed$error, context = parsed$context
    )))
  }
  if (raw) text else jsonlite::fromJSON(text, simplifyVector = FALSE)
}

cpet_capabilities <- function(client) .cpet_request(client, "GET", "/v1/capabilities")
cpet_formats <- function(client) .cpet_request(client, "GET", "/v1/formats")
cpet_metrics <- function(client) .cpet_request(client, "GET", "/v1/metrics")
cpet_sample <- function(client, oscillating = FALSE) .cpet_request(client, "GET", "/v1/sample", query = list(oscillating = tolower(as.character(oscillating))))
cpet_openapi <- function(client) .cpet_request(client, "GET", "/v1/openapi.json")
cpet_health <- function(client) .cpet_request(client, "GET", "/health")
cpet_ready <- function(client) .cpet_request(client, "GET", "/ready")
cpet_llms_txt <- function(client) .cpet_request(client, "GET", "/llms.txt", raw = TRUE)
cpet_llms_full_txt <- function(client) .cpet_request(client, "GET", "/llms-full.txt", raw = TRUE)

# Uploads a file unchanged (by path, or its text as content); returns the summary with cpet_id.
cpet_upload <- function(client, path = NULL, content = NULL, filename = NULL, retain_hours = NULL) {
  body <- list(filename = if (!is.null(filename)) filename else if (!is.null(path)) basename(path) else "recording.csv")
  if (!is.null(path)) {
    bytes <- readBin(path, "raw", file.info(path)$size)
    text <- rawToChar(bytes[bytes != as.raw(0)])
    if (grepl("\\.(xlsx|xls|zip)$", tolower(path)) || !validUTF8(text) || any(bytes == as.raw(0))) {
      body$content_base64 <- jsonlite::base64_enc(bytes)
    } else {
      body$content <- text
    }
  } else {
    body$content <- content
  }
  if (!is.null(retain_hours)) body$retain_hours <- retain_hours
  .cpet_request(client, "POST", "/v1/cpet/content", body = body)
}

cpet_upload_tickets <- function(client, count = 1) .cpet_request(client, "POST", "/v1/uploads", body = list(count = count))
cpet_get <- function(client, cpet_id) .cpet_request(client, "GET", paste0("/v1/cpet/", cpet_id))
cpet_delete <- function(client, cpet_id) .cpet_request(client, "DELETE", paste0("/v1/cpet/", cpet_id))
cpet_series <- function(client, cpet_id, channels = "VE", max_points = 500, grid = "raw") {
  .cpet_request(client, "GET", paste0("/v1/cpet/", cpet_id, "/series"), query = list(channels = channels, max_points = max_points, grid = grid))
}

# The full-resolution recording as a data frame (t_s, VO2_ml_min, ..., phase, flags).
cpet_export <- function(client, cpet_id, resample = NULL, averaging = NULL, window_s = NULL, breaths = NULL,
                        alignment = NULL, statistic = NULL, cutoff_hz = NULL, order = NULL) {
  text <- .cpet_request(client, "GET", paste0("/v1/cpet/", cpet_id, "/export"), raw = TRUE, query = list(
    format = "csv", resample = resample, averaging = averaging, window_s = window_s, breaths = breaths,
    alignment = alignment, statistic = statistic, cutoff_hz = cutoff_hz, order = order
  ))
  utils::read.csv(text = text, comment.char = "#", check.names = FALSE, stringsAsFactors = FALSE)
}

cpet_analyze <- function(client, cpet_id, analyses = NULL, model = NULL, model_version = NULL) {
  body <- Filter(Negate(is.null), list(analyses = if (!is.null(analyses)) I(analyses), model = model, model_version = model_version))
  .cpet_request(client, "POST", paste0("/v1/cpet/", cpet_id, "/analyze"), body = if (length(body)) body else structure(list(), names = character(0)))
}

cpet_compute <- function(client, cpet_id, metrics, averaging = NULL, body_mass_kg = NULL) {
  body <- Filter(Negate(is.null), list(metrics = I(metrics), averaging = averaging, body_mass_kg = body_mass_kg))
  .cpet_request(client, "POST", paste0("/v1/cpet/", cpet_id, "/compute"), body = body)
}

# One row per analysis envelope: analysis, status, error, and each top-level finding that is a number.
cpet_findings <- function(analysis_response) {
  rows <- lapply(analysis_response$results, function(env) {
    f <- env$findings
    nums <- if (is.null(f)) list() else Filter(function(v) is.numeric(v) && length(v) == 1, f)
    data.frame(c(list(analysis = env$analysis, status = env$status, error = if (is.null(env$error)) NA_character_ else env$error), nums), check.names = FALSE, stringsAsFactors = FALSE)
  })
  cols <- unique(unlist(lapply(rows, names)))
  do.call(rbind, lapply(rows, function(r) { for (c in setdiff(cols, names(r))) r[[c]] <- NA; r[cols] }))
}
