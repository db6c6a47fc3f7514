-- IfiDashboard: give the collector's login what its probes read (src/Collector/Probes/Sql/*.sql), and nothing more.
--
-- Run on each SQL Server instance (2012 and later, Windows or Linux) as a member of sysadmin, in SSMS or with
--   sqlcmd -S sql01.corp.example -E -b -i grant-collector-permissions.sql
-- after setting the three variables below. Running it again changes nothing (every step checks first), so it can be
-- rerun after an upgrade to SQL Server 2022 or later, where the permission names differ.
-- Not for Azure SQL Database: the collector reports it as "not applicable" without reading anything that needs a grant.
--
-- What each grant is for:
--   VIEW SERVER STATE (2019 and earlier) / VIEW SERVER SECURITY STATE (2022 and later)
--       sys.dm_server_services (the engine's IFI flag and service account) and sys.dm_database_encryption_keys (TDE).
--   EXECUTE on master.sys.xp_readerrorlog, through a user in master (only on builds whose sys.dm_server_services has
--       no IFI column yet: 2012 before SP4, 2014 before SP3, 2016 RTM)
--       the error log's start-up line, the IFI state on those builds. sp_readerrorlog checks securityadmin membership
--       there (Msg 15003, whatever Microsoft's page says), so the collector calls the extended procedure, which checks
--       EXECUTE on itself (Msg 229); a grant on an object in master needs a user in master (else Msg 15151).
--   VIEW ANY DEFINITION   sys.master_files: without it the login sees only the files of databases it can enter.
--   ALTER TRACE           sys.traces and sys.fn_trace_gettable: the default trace's autogrowth events. ALTER TRACE also
--                         allows starting traces; the collector only reads the default trace.
--   SELECT on msdb.dbo.backupset   the latest full backups (the size a restore would have to zero); no other msdb table.
--   VIEW SERVER PERFORMANCE STATE (2022 and later)
--       sys.dm_os_volume_stats: the volume each database file lives on (a volume mounted in a folder is one of its
--       own); sys.dm_os_cluster_nodes: the nodes the "Perform volume maintenance tasks" right must be granted on; and
--       sys.dm_hadr_availability_replica_states / _group_states: the replica's role in each availability group (with
--       VIEW ANY DEFINITION for sys.availability_groups and _replicas). Before 2022 VIEW SERVER STATE covers them all.
-- Needs nothing: SERVERPROPERTY, SYSDATETIMEOFFSET, sys.dm_os_host_info, sys.all_columns (public).
-- Not granted: sysadmin, securityadmin (it can grant itself any server permission), VIEW ANY ERROR LOG (only builds
-- without the IFI column read the error log, and every such build is older than 2022), db_datareader.

USE master;  -- server permissions can be granted only from master
SET NOCOUNT ON;
SET XACT_ABORT ON;

DECLARE @login sysname = N'CONTOSO\ifi-collector$';  -- a Windows account (a gMSA ends with $) or a SQL login name
DECLARE @windows_login bit = 1;                        -- 1: Windows account (integrated security); 0: SQL login
DECLARE @sql_password nvarchar(128) = NULL;            -- SQL login only, and only used when the login is created here

DECLARE @version nvarchar(128) = CONVERT(nvarchar(128), SERVERPROPERTY('ProductVersion'));
DECLARE @major int = CONVERT(int, PARSENAME(@version, 4));
DECLARE @engine_edition int = CONVERT(int, SERVERPROPERTY('EngineEdition'));
DECLARE @statement nvarchar(max);

IF @engine_edition IN (5, 6, 11)
BEGIN
    RAISERROR(N'This is Azure SQL Database or Synapse (EngineEdition %d): nothing to grant; the collector reports it as not applicable.', 16, 1, @engine_edition);
    RETURN;
END;
IF @major < 11
BEGIN
    RAISERROR(N'SQL Server %s is older than 2012: the collector does not support it.', 16, 1, @version);
    RETURN;
END;

-- 1. The login.
IF SUSER_ID(@login) IS NULL
BEGIN
    IF @windows_login = 1
        SET @statement = N'CREATE LOGIN ' + QUOTENAME(@login) + N' FROM WINDOWS;';
    ELSE IF @sql_password IS NULL OR LEN(@sql_password) < 16
    BEGIN
        RAISERROR(N'Login %s does not exist: set @sql_password (16 characters or more) to create it as a SQL login.', 16, 1, @login);
        RETURN;
    END
    ELSE
        SET @statement = N'CREATE LOGIN ' + QUOTENAME(@login) + N' WITH PASSWORD = ' + QUOTENAME(@sql_password, N'''')
                       + N', CHECK_POLICY = ON, CHECK_EXPIRATION = OFF, DEFAULT_DATABASE = master;';
    EXEC sys.sp_executesql @statement;
    PRINT N'Created login ' + QUOTENAME(@login) + N'.';
END
ELSE
    PRINT N'Login ' + QUOTENAME(@login) + N' exists.';

-- 2. Server permissions, by version.
IF @major >= 16
    SET @statement = N'GRANT VIEW SERVER SECURITY STATE TO ' + QUOTENAME(@login) + N';';
ELSE
    SET @statement = N'GRANT VIEW SERVER STATE TO ' + QUOTENAME(@login) + N';';
EXEC sys.sp_executesql @statement;
SET @statement = N'GRANT VIEW ANY DEFINITION TO ' + QUOTENAME(@login) + N';';
EXEC sys.sp_executesql @statement;
SET @statement = N'GRANT ALTER TRACE TO ' + QUOTENAME(@login) + N';';
EXEC sys.sp_executesql @statement;
IF @major >= 16
BEGIN
    SET @statement = N'GRANT VIEW SERVER PERFORMANCE STATE TO ' + QUOTENAME(@login) + N';';
    EXEC sys.sp_executesql @statement;
END

-- 3. master, only where the services DMV has no IFI column: a user for the login, allowed to run xp_readerrorlog only.
IF NOT EXISTS (SELECT 1 FROM sys.all_columns
               WHERE object_id = OBJECT_ID(N'sys.dm_server_services') AND name = N'instant_file_initialization_enabled')
BEGIN
    IF NOT EXISTS (SELECT 1 FROM sys.database_principals WHERE sid = SUSER_SID(@login))
    BEGIN
        SET @statement = N'CREATE USER ' + QUOTENAME(@login) + N' FOR LOGIN ' + QUOTENAME(@login) + N';';
        EXEC sys.sp_executesql @statement;
    END
    DECLARE @master_user sysname = (SELECT name FROM sys.database_principals WHERE sid = SUSER_SID(@login));
    SET @statement = N'GRANT EXECUTE ON sys.xp_readerrorlog TO ' + QUOTENAME(@master_user) + N';';
    EXEC sys.sp_executesql @statement;
    PRINT N'This build has no IFI column in sys.dm_server_services: granted EXECUTE on xp_readerrorlog in master.';
END

-- 4. msdb: a user for the login, allowed to read backupset only.
SET @statement = N'
IF NOT EXISTS (SELECT 1 FROM sys.database_principals WHERE sid = SUSER_SID(@login))
    EXEC (N''CREATE USER '' + @quoted + N'' FOR LOGIN '' + @quoted + N'';'');
DECLARE @user sysname = (SELECT name FROM sys.database_principals WHERE sid = SUSER_SID(@login));
EXEC (N''GRANT SELECT ON dbo.backupset TO '' + QUOTENAME(@user) + N'';'');';
DECLARE @quoted nvarchar(258) = QUOTENAME(@login);
EXEC msdb.sys.sp_executesql @statement, N'@login sysname, @quoted nvarchar(258)', @login = @login, @quoted = @quoted;

-- 5. What the login holds now.
SELECT N'server' AS scope, p.permission_name, p.state_desc
FROM sys.server_permissions AS p
WHERE p.grantee_principal_id = SUSER_ID(@login)
UNION ALL
SELECT N'master.sys.' + o.name, p.permission_name, p.state_desc
FROM sys.database_permissions AS p
JOIN sys.database_principals AS u ON u.principal_id = p.grantee_principal_id
JOIN sys.all_objects AS o ON o.object_id = p.major_id
WHERE u.sid = SUSER_SID(@login) AND p.class = 1
UNION ALL
SELECT N'msdb.dbo.' + o.name, p.permission_name, p.state_desc
FROM msdb.sys.database_permissions AS p
JOIN msdb.sys.database_principals AS u ON u.principal_id = p.grantee_principal_id
JOIN msdb.sys.objects AS o ON o.object_id = p.major_id
WHERE u.sid = SUSER_SID(@login) AND p.class = 1
ORDER BY scope, permission_name;
