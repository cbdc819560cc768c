"""Files in and out: CSV exports, JSON backups and their imports, the spreadsheet."""
