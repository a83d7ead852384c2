<?php
// Serve one stored question figure through Moodle's own send_stored_file (the call question_pluginfile ends in).
define('NO_MOODLE_COOKIES', true);
require('/work/moodle-check/www/config.php');
$fs = get_file_storage();
$rec = $DB->get_record_sql("SELECT * FROM {files} WHERE component='question' AND filearea='generalfeedback' AND filename LIKE 'heatmap-%' ORDER BY id DESC", [], IGNORE_MULTIPLE);
$file = $fs->get_file_by_id($rec->id);
send_stored_file($file, 0, 0, false, []);
