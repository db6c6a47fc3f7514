using System.Security.Cryptography;
using System.Text;

namespace IfiDashboard.Server.Security;

/// <summary>
/// Makes and hashes keys. A key reads <c>ifi_{prefix}_{secret}</c>: the prefix identifies it in lists and logs; the
/// secret (about 238 bits) makes it unguessable, which is also why a plain SHA-256 is enough to store it (no slow
/// password hash is needed for a random key of that strength).
/// </summary>
public static class ApiKeyMaterial
{
    const string PrefixAlphabet = "abcdefghijkmnpqrstuvwxyz23456789";
    const string SecretAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    public const int PrefixLength = 8;
    const int SecretLength = 40;

    /// <summary>Longer presented keys are refused before hashing.</summary>
    public const int MaxPresentedLength = 256;

    public static (string Prefix, string Key) Generate()
    {
        var prefix = RandomNumberGenerator.GetString(PrefixAlphabet, PrefixLength);
        var secret = RandomNumberGenerator.GetString(SecretAlphabet, SecretLength);
        return (prefix, $"ifi_{prefix}_{secret}");
    }

    /// <summary>Lower-case hex SHA-256 of the key's UTF-8 bytes.</summary>
    public static string Hash(string key) => Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(key)));

    public static bool IsPrefix(string text) =>
        text.Length == PrefixLength && text.All(c => PrefixAlphabet.Contains(c, StringComparison.Ordinal));
}
