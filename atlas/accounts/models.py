"""Personal API tokens: django-rest-knox's token (a SHA-512 digest, never the token) with a
name the user chose, a stable id for the page, and when it was last used."""

from django.db import models
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS


class ApiToken(AbstractAuthToken):
    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    name = models.CharField(max_length=80)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "API token"
        verbose_name_plural = "API tokens"

    def __str__(self) -> str:
        return f"{self.name} ({self.token_key}…)"
