## R/exams side of the R/exams-shaped workload (bench/rexams.yaml):
##   Rscript rexams.R html|pdf|moodle STUDENTS warm|cold [OUTDIR]
## Each student gets 10 copies of softmax.Rnw (10 instances per student).
## cold: load exams and do the work once (time the whole process from outside).
## warm: load exams, do 2 students first, then time STUDENTS students in the
##       same session; prints one JSON line with the timed seconds.
args <- commandArgs(trailingOnly = TRUE)
mode <- args[1]; students <- as.integer(args[2]); warm <- identical(args[3], "warm")
out <- if (length(args) >= 4) args[4] else tempfile("rexams-")
here <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  dirname(normalizePath(f))
})
suppressPackageStartupMessages(library("exams"))
file <- rep(file.path(here, "softmax.Rnw"), 10)

run <- function(n, dir) {
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  switch(mode,
    html   = exams2html(file, n = n, dir = dir, name = "student", edir = here),
    pdf    = exams2pdf(file, n = n, dir = dir, name = "student", edir = here),
    moodle = exams2moodle(file, n = n, dir = dir, name = "student", edir = here),
    stop("mode must be html, pdf or moodle"))
  invisible(NULL)
}

set.seed(1)
if (warm) run(2L, file.path(out, "warm-up"))
cpu <- function(t) sum(t[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE)
t0 <- proc.time()
run(students, file.path(out, "out"))
t1 <- proc.time()
secs <- t1[["elapsed"]] - t0[["elapsed"]]
cpu_s <- cpu(t1) - cpu(t0)  # R and its children (pdflatex, pandoc, ttm)
n <- students * length(file)
cat(sprintf('{"tool": "R/exams %s", "format": "%s", "instances": %d, "warm": %s, "seconds": %.3f, "ms_per_instance": %.2f, "cpu_ms_per_instance": %.2f, "files": %d}\n',
            packageVersion("exams"), mode, n, tolower(warm), secs, 1000 * secs / n, 1000 * cpu_s / n,
            length(list.files(file.path(out, "out")))))
if (length(args) < 4) unlink(out, recursive = TRUE)
