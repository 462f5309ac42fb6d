-- description: The dumps in the database: label, root, when indexed, file and error counts.
SELECT label, root, indexed_at, file_count, error_count, tool_version
FROM dumps
ORDER BY label;
