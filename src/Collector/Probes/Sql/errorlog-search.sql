-- IfiDashboard probe: the lines of error log @log that hold @search. Run only when no kept log has the English IFI
-- start-up line, on builds without the IFI column: it looks for the start-up version line (the build number, the same
-- in every language) and an English start-up line beside it, to tell a log in another language (a localized SQL
-- Server, whose IFI line is translated) from a build or a log without the IFI line.
-- Needs what errorlog-ifi needs (VIEW ANY ERROR LOG from 2022; see there for older builds).
EXEC sp_readerrorlog @log, 1, @search;
