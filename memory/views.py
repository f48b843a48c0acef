from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from memory.models import Memory


@login_required
def memory_page(request):
    memories = Memory.objects.live().filter(user=request.user).order_by("kind", "-created_at")
    return render(request, "memory/page.html", {"memories": memories})
